import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Duplicates:
 *
 * - `booked_receipts`: per company, which proposal a receipt (SHA-256 of its bytes) is reserved for
 *   and the booking it became. The primary key lets the executor book one receipt once, whichever
 *   proposal carries it. Filled from the proposals already executed with a receipt (the earliest
 *   one per receipt).
 * - two indexes for the duplicate look-up at submission: same amount around a date, same receipt.
 */
export class DuplicateReceipts1764180000001 implements MigrationInterface {
  name = 'DuplicateReceipts1764180000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE booked_receipts (
        company_id   text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        sha256       text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        proposal_id  text NOT NULL,
        booking_id   text NULL,
        created_at   timestamptz NOT NULL,
        updated_at   timestamptz NOT NULL,
        PRIMARY KEY (company_id, sha256)
      )`);
    await q.query(`
      INSERT INTO booked_receipts (company_id, sha256, proposal_id, booking_id, created_at, updated_at)
      SELECT DISTINCT ON (company_id, receipt->>'sha256')
             company_id, receipt->>'sha256', id, booking_id, updated_at, updated_at
        FROM proposals
       WHERE status = 'EXECUTED' AND booking_id IS NOT NULL AND receipt->>'sha256' ~ '^[0-9a-f]{64}$'
       ORDER BY company_id, receipt->>'sha256', updated_at, id`);
    await q.query('CREATE INDEX proposals_duplicate_amount_idx ON proposals (company_id, amount, accounting_date)');
    await q.query(
      `CREATE INDEX proposals_duplicate_receipt_idx ON proposals (company_id, (receipt->>'sha256'))
        WHERE receipt IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_duplicate_receipt_idx');
    await q.query('DROP INDEX proposals_duplicate_amount_idx');
    await q.query('DROP TABLE booked_receipts');
  }
}
