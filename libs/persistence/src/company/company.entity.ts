import { EntitySchema } from 'typeorm';

export interface CompanyRow {
  id: string;
  name: string;
  createdAt: Date;
  /** Set when the company was deleted but its record stays for its audit events. */
  deletedAt: Date | null;
}

export const CompanyEntity = new EntitySchema<CompanyRow>({
  name: 'Company',
  tableName: 'companies',
  columns: {
    id: { type: 'text', primary: true },
    name: { type: 'text' },
    createdAt: { type: 'timestamptz', name: 'created_at', createDate: true },
    deletedAt: { type: 'timestamptz', name: 'deleted_at', nullable: true },
  },
});
