import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `proposals.amount_nok`: for an expense in another currency than NOK, the amount actually paid in
 * NOK (minor units), which the providers book; NULL for a NOK expense. The domain requires it for a
 * foreign currency; the column does not, so that proposals stored before it still load.
 */
export class AddProposalAmountNok1763840000001 implements MigrationInterface {
  name = 'AddProposalAmountNok1763840000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE proposals
        ADD COLUMN amount_nok bigint NULL,
        ADD CONSTRAINT proposals_amount_nok_check CHECK (amount_nok IS NULL OR amount_nok > 0)
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE proposals DROP CONSTRAINT proposals_amount_nok_check, DROP COLUMN amount_nok`);
  }
}
