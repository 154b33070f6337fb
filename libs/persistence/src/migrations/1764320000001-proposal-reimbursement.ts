import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Employee reimbursements (GET /v1/reimbursements):
 *
 * - `proposals.reimbursement`: set when an executed employee outlay is marked paid back (the
 *   ReimbursementPaid event is the record; this is its projection): `paidOn`, `reference`,
 *   `markedBy`, `markedAt`. Null while the company still owes the employee.
 * - `proposals_reimbursements_idx`: the company's executed employee outlays in submission order,
 *   the list's keyset, small beside the whole table.
 */
export class ProposalReimbursement1764320000001 implements MigrationInterface {
  name = 'ProposalReimbursement1764320000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE proposals
        ADD COLUMN reimbursement jsonb NULL CHECK (jsonb_typeof(reimbursement) = 'object')`);
    await q.query(`CREATE INDEX proposals_reimbursements_idx ON proposals (company_id, submitted_at, id)
        WHERE status = 'EXECUTED' AND kind = 'expense' AND (bookkeeping ->> 'paidWith') = 'employee'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_reimbursements_idx');
    await q.query('ALTER TABLE proposals DROP COLUMN reimbursement');
  }
}
