import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Patterns learn the VAT treatment and the supplier's organisation number of the merchant's
 * approvals. Existing patterns keep NULL in both: not yet known (the ConfidenceEngine reads an
 * unknown treatment as domestic, and an unknown supplier holds a supplier invoice for review).
 */
export class PatternLearntLinks1764330000001 implements MigrationInterface {
  name = 'PatternLearntLinks1764330000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE patterns
        ADD COLUMN vat_treatment text
          CHECK (vat_treatment IN ('domestic', 'foreign_no_deduction', 'reverse_charge')),
        ADD COLUMN supplier_organization_number text CHECK (supplier_organization_number ~ '^[0-9]{9}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE patterns DROP COLUMN vat_treatment, DROP COLUMN supplier_organization_number');
  }
}
