import { EntitySchema } from 'typeorm';

/** One row of `company_settings` (migration 1763780000004): the settings as one jsonb document. */
export interface CompanySettingsRow {
  companyId: string;
  settings: unknown;
  updatedAt: Date;
}

export const CompanySettingsEntity = new EntitySchema<CompanySettingsRow>({
  name: 'CompanySettings',
  tableName: 'company_settings',
  columns: {
    companyId: { type: 'text', name: 'company_id', primary: true },
    settings: { type: 'jsonb' },
    updatedAt: { type: 'timestamptz', name: 'updated_at' },
  },
});
