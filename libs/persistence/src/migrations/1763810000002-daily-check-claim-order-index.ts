import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily check's claim takes the first due run in (next_attempt_at, company_id) order that no
 * other worker holds (FOR UPDATE SKIP LOCKED, LIMIT 1). With an index on next_attempt_at alone the
 * planner joined and sorted every due run for each claim: 1.6 ms at 1 000 runs, about 3.7 ms with
 * 500 workers claiming at once, 1 500 claims a day. An index in the claim's own order lets it stop
 * at the first run it can lock (0.2 ms). It replaces the old one, whose column it leads with.
 */
export class DailyCheckClaimOrderIndex1763810000002 implements MigrationInterface {
  name = 'DailyCheckClaimOrderIndex1763810000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX daily_check_runs_due_order_idx ON daily_check_runs (next_attempt_at, company_id)
        WHERE status IN ('pending', 'running', 'failed')`);
    await q.query('DROP INDEX daily_check_runs_due_idx');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX daily_check_runs_due_idx ON daily_check_runs (next_attempt_at)
        WHERE status IN ('pending', 'running', 'failed')`);
    await q.query('DROP INDEX daily_check_runs_due_order_idx');
  }
}
