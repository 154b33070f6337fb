import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily check's run history (docs/api.md §4.6): one row per (company, day), so that however
 * many instances run, a company is checked — and its results posted — once a day.
 * `next_attempt_at`: when a pending or failed run is due, or when a running run's lease ends;
 * null once it succeeded or ran out of attempts.
 */
export class CreateDailyCheckRuns1763800000002 implements MigrationInterface {
  name = 'CreateDailyCheckRuns1763800000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE daily_check_runs (
        company_id        text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        day               date NOT NULL,
        status            text NOT NULL CHECK (status IN ('pending', 'running', 'succeeded', 'failed')),
        attempts          integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at   timestamptz NULL,
        claim_token       text NULL,
        claimed_by        text NULL,
        provider          text NULL,
        started_at        timestamptz NULL,
        finished_at       timestamptz NULL,
        missing_receipts  integer NULL,
        overdue_invoices  integer NULL,
        items_found       integer NULL,
        error             text NULL,
        created_at        timestamptz NOT NULL,
        PRIMARY KEY (company_id, day),
        CHECK (status NOT IN ('pending', 'running') OR next_attempt_at IS NOT NULL)
      )`);
    await q.query(
      `CREATE INDEX daily_check_runs_due_idx ON daily_check_runs (next_attempt_at)
        WHERE status IN ('pending', 'running', 'failed')`,
    );
    await q.query('CREATE INDEX daily_check_runs_day_idx ON daily_check_runs (day, status)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE daily_check_runs');
  }
}
