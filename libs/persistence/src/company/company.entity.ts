import { EntitySchema } from 'typeorm';

export interface CompanyRow {
  id: string;
  name: string;
  createdAt: Date;
}

export const CompanyEntity = new EntitySchema<CompanyRow>({
  name: 'Company',
  tableName: 'companies',
  columns: {
    id: { type: 'text', primary: true },
    name: { type: 'text' },
    createdAt: { type: 'timestamptz', name: 'created_at', createDate: true },
  },
});
