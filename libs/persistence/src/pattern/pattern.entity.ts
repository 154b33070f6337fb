import { EntitySchema } from 'typeorm';

/** One row of `patterns` (migrations 1763780000003, 1763830000001, 1764330000001). */
export interface PatternRow {
  id: string;
  companyId: string;
  merchantKey: string;
  merchantName: string;
  accountCode: string;
  vatRate: string;
  vatTreatment: string | null;
  supplierOrganizationNumber: string | null;
  approvals: number;
  amountCount: number;
  amountMean: number;
  amountM2: number;
  amountMin: string | null;
  amountMax: string | null;
  verified: boolean;
  writtenBy: string | null;
  lastChangedBy: string | null;
  confirmedBy: string[];
  history: unknown;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  retiredAt: Date | null;
}

export const PatternEntity = new EntitySchema<PatternRow>({
  name: 'Pattern',
  tableName: 'patterns',
  columns: {
    id: { type: 'text', primary: true },
    companyId: { type: 'text', name: 'company_id' },
    merchantKey: { type: 'text', name: 'merchant_key' },
    merchantName: { type: 'text', name: 'merchant_name' },
    accountCode: { type: 'text', name: 'account_code' },
    vatRate: { type: 'text', name: 'vat_rate' },
    vatTreatment: { type: 'text', name: 'vat_treatment', nullable: true },
    supplierOrganizationNumber: { type: 'text', name: 'supplier_organization_number', nullable: true },
    approvals: { type: 'int' },
    amountCount: { type: 'int', name: 'amount_count' },
    amountMean: { type: 'double precision', name: 'amount_mean' },
    amountM2: { type: 'double precision', name: 'amount_m2' },
    amountMin: { type: 'bigint', name: 'amount_min', nullable: true },
    amountMax: { type: 'bigint', name: 'amount_max', nullable: true },
    verified: { type: 'boolean' },
    writtenBy: { type: 'text', name: 'written_by', nullable: true },
    lastChangedBy: { type: 'text', name: 'last_changed_by', nullable: true },
    confirmedBy: { type: 'text', name: 'confirmed_by', array: true },
    history: { type: 'jsonb', nullable: true },
    version: { type: 'int' },
    createdAt: { type: 'timestamptz', name: 'created_at' },
    updatedAt: { type: 'timestamptz', name: 'updated_at' },
    retiredAt: { type: 'timestamptz', name: 'retired_at', nullable: true },
  },
});
