import type { EntityManager } from 'typeorm';
import { ReceiptStore, type StoredReceipt } from '@app/application';
import { conflictOnUniqueViolation, insertInto, select } from '../shared/sql';

/** The columns a receipt's row is inserted with, in the order of `receiptParameters`. */
export const RECEIPT_COLUMNS = [
  'proposal_id',
  'company_id',
  'filename',
  'content_type',
  'size_bytes',
  'sha256',
  'bytes',
] as const;

export function receiptParameters(receipt: StoredReceipt): unknown[] {
  const bytes = Buffer.from(receipt.bytes.buffer, receipt.bytes.byteOffset, receipt.bytes.byteLength);
  return [
    receipt.proposalId,
    receipt.companyId,
    receipt.filename,
    receipt.contentType,
    receipt.bytes.byteLength,
    receipt.sha256,
    bytes,
  ];
}

interface ReceiptRecord {
  proposal_id: string;
  company_id: string;
  filename: string;
  content_type: string;
  sha256: string;
  bytes: Buffer;
}

/**
 * ReceiptStore over `receipts` (bytea). Over a unit of work's manager the receipt commits with its
 * proposal (the row references it); over the data source's manager it serves the executor's reads.
 */
export class TypeOrmReceiptStore extends ReceiptStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async save(receipt: StoredReceipt): Promise<void> {
    await conflictOnUniqueViolation(
      ['receipts_pkey'],
      () => `proposal ${receipt.proposalId} already has a receipt`,
      () => this.manager.query(insertInto('receipts', RECEIPT_COLUMNS, 1), receiptParameters(receipt)),
    );
  }

  async find(companyId: string, proposalId: string): Promise<StoredReceipt | null> {
    const [row] = await select<ReceiptRecord>(
      this.manager,
      `SELECT proposal_id, company_id, filename, content_type, sha256, bytes FROM receipts
        WHERE company_id = $1 AND proposal_id = $2`,
      [companyId, proposalId],
    );
    if (!row) return null;
    return {
      proposalId: row.proposal_id,
      companyId: row.company_id,
      filename: row.filename,
      contentType: row.content_type,
      sha256: row.sha256,
      bytes: new Uint8Array(row.bytes),
    };
  }
}
