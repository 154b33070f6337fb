import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `daily_check_runs.counts`: what each daily check found, as a jsonb object keyed by the check's id
 * (`{"missingReceipts": 2, "overdueInvoices": 1}`), instead of one column per check, so that adding
 * a check to DAILY_CHECKS needs no migration. Existing runs keep their counts under the two ids.
 */
export class DailyCheckRunCounts1764255000001 implements MigrationInterface {
  name = 'DailyCheckRunCounts1764255000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE daily_check_runs ADD COLUMN counts jsonb NULL CHECK (jsonb_typeof(counts) = 'object')`);
    await q.query(`
      UPDATE daily_check_runs
         SET counts = jsonb_strip_nulls(jsonb_build_object('missingReceipts', missing_receipts, 'overdueInvoices', overdue_invoices))
       WHERE missing_receipts IS NOT NULL OR overdue_invoices IS NOT NULL`);
    await q.query('ALTER TABLE daily_check_runs DROP COLUMN missing_receipts, DROP COLUMN overdue_invoices');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE daily_check_runs ADD COLUMN missing_receipts integer NULL, ADD COLUMN overdue_invoices integer NULL',
    );
    await q.query(`
      UPDATE daily_check_runs
         SET missing_receipts = (counts ->> 'missingReceipts')::integer,
             overdue_invoices = (counts ->> 'overdueInvoices')::integer
       WHERE counts IS NOT NULL`);
    await q.query('ALTER TABLE daily_check_runs DROP COLUMN counts');
  }
}
