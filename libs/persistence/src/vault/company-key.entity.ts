import { EntitySchema } from 'typeorm';

/** One row of `company_keys` (migration 1763780000006): a company's wrapped DEK. */
export interface CompanyKeyRow {
  companyId: string;
  wrappedDek: Buffer;
  kekId: string;
  createdAt: Date;
  rotatedAt: Date | null;
}

export const CompanyKeyEntity = new EntitySchema<CompanyKeyRow>({
  name: 'CompanyKey',
  tableName: 'company_keys',
  columns: {
    companyId: { type: 'text', name: 'company_id', primary: true },
    wrappedDek: { type: 'bytea', name: 'wrapped_dek' },
    kekId: { type: 'text', name: 'kek_id' },
    createdAt: { type: 'timestamptz', name: 'created_at' },
    rotatedAt: { type: 'timestamptz', name: 'rotated_at', nullable: true },
  },
});
