import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Near-duplicates (docs/trust.md "Duplicates"):
 *
 * - `proposals.receipt_fingerprint`: the receipt's fingerprint computed at intake (`phash:` and 16
 *   hex digits for an image, `pdf:` and a hex SHA-256 for a PDF), so that the same receipt in other
 *   bytes is found; null for the proposals stored before (their receipts are still found by SHA-256)
 *   and when none could be computed. Indexed per company for the duplicate look-up.
 * - the amount index of the look-up is on the NOK amount (`amount_nok` for another currency,
 *   else `amount`), since a purchase sent once in NOK and once in EUR is one.
 */
export class ReceiptFingerprints1764250000001 implements MigrationInterface {
  name = 'ReceiptFingerprints1764250000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE proposals ADD COLUMN receipt_fingerprint text NULL
        CHECK (receipt_fingerprint ~ '^(phash:[0-9a-f]{16}|pdf:[0-9a-f]{64})$')`);
    await q.query(
      `CREATE INDEX proposals_duplicate_fingerprint_idx ON proposals (company_id, receipt_fingerprint)
        WHERE receipt_fingerprint IS NOT NULL`,
    );
    await q.query('DROP INDEX proposals_duplicate_amount_idx');
    await q.query(
      `CREATE INDEX proposals_duplicate_nok_amount_idx
        ON proposals (company_id, (COALESCE(amount_nok, amount)), accounting_date)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_duplicate_nok_amount_idx');
    await q.query('CREATE INDEX proposals_duplicate_amount_idx ON proposals (company_id, amount, accounting_date)');
    await q.query('DROP INDEX proposals_duplicate_fingerprint_idx');
    await q.query('ALTER TABLE proposals DROP COLUMN receipt_fingerprint');
  }
}
