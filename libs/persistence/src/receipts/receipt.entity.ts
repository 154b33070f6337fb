import { EntitySchema } from 'typeorm';

/** One row of `receipts` (migration 1763790000050). */
export interface ReceiptRow {
  proposalId: string;
  companyId: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  bytes: Buffer;
  createdAt: Date;
}

export const ReceiptEntity = new EntitySchema<ReceiptRow>({
  name: 'Receipt',
  tableName: 'receipts',
  columns: {
    proposalId: { type: 'text', name: 'proposal_id', primary: true },
    companyId: { type: 'text', name: 'company_id' },
    filename: { type: 'text' },
    contentType: { type: 'text', name: 'content_type' },
    sizeBytes: { type: 'int', name: 'size_bytes' },
    sha256: { type: 'text' },
    bytes: { type: 'bytea' },
    createdAt: { type: 'timestamptz', name: 'created_at' },
  },
});
