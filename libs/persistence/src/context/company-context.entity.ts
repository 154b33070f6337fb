import { EntitySchema } from 'typeorm';

export interface CompanyContextRow {
  companyId: string;
  provider: string;
  snapshot: Record<string, unknown>;
  fetchedAt: Date;
}

/** `company_context`: the chart last fetched from the company's provider, as one jsonb snapshot. */
export const CompanyContextEntity = new EntitySchema<CompanyContextRow>({
  name: 'CompanyContext',
  tableName: 'company_context',
  columns: {
    companyId: { type: 'text', primary: true, name: 'company_id' },
    provider: { type: 'text' },
    snapshot: { type: 'jsonb' },
    fetchedAt: { type: 'timestamptz', name: 'fetched_at' },
  },
});
