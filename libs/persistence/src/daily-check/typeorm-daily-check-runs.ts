import type { DataSource, EntityManager } from 'typeorm';
import {
  DailyCheckLedger,
  DailyCheckRuns,
  totalFound,
  type DailyCheckClaim,
  type DailyCheckCounts,
  type DailyCheckRun,
  type DailyCheckRunStatus,
  type DailyCheckScope,
} from '@app/application';
import { ConcurrencyConflict, isProviderKind } from '@app/domain';
import { execute, select, toNullableNumber, toNumber } from '../shared/sql';

/** Key of the advisory lock under which a day's runs are created (instances starting the 07:00 job together take turns). */
export const DAILY_CHECK_SCHEDULE_LOCK_KEY = 7305_0007;

interface RunRow {
  company_id: string;
  day: string;
  status: DailyCheckRunStatus;
  attempts: number | string;
  provider: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  counts: DailyCheckCounts | null;
  items_found: number | string | null;
  error: string | null;
  next_attempt_at: Date | null;
}

const RUN_COLUMNS = `company_id, day::text AS day, status, attempts, provider, started_at, finished_at,
  counts, items_found, error, next_attempt_at`;

/** Filters of a scope, as SQL over `daily_check_runs r`, numbered from `$first`. */
function scopeFilter(scope: Omit<DailyCheckScope, 'provider'>, first: number): { sql: string; parameters: unknown[] } {
  const clauses: string[] = [];
  const parameters: unknown[] = [];
  if (scope.day !== undefined) {
    parameters.push(scope.day);
    clauses.push(`r.day = $${first + parameters.length - 1}::date`);
  }
  if (scope.companyId !== undefined) {
    parameters.push(scope.companyId);
    clauses.push(`r.company_id = $${first + parameters.length - 1}`);
  }
  return { sql: clauses.map((c) => ` AND ${c}`).join(''), parameters };
}

/** A run is due: pending or failed with its time come (or any time, ignoring backoff), or running with its lease lapsed. */
function dueCondition(now: string, ignoreBackoff: boolean): string {
  if (ignoreBackoff) {
    return `((r.status IN ('pending', 'running') AND r.next_attempt_at <= ${now}) OR (r.status = 'failed' AND r.next_attempt_at IS NOT NULL))`;
  }
  // Written as the partial index daily_check_runs_due_order_idx is, so that a claim walks it in
  // (next_attempt_at, company_id) order and stops at the first run it can lock.
  return `(r.status IN ('pending', 'running', 'failed') AND r.next_attempt_at <= ${now})`;
}

/** The daily check's run records over `daily_check_runs`. */
export class TypeOrmDailyCheckRuns extends DailyCheckRuns {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async schedule(day: string, now: Date, companyId?: string): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [DAILY_CHECK_SCHEDULE_LOCK_KEY]);
      const parameters: unknown[] = [day, now];
      let source = `SELECT c.company_id, c.provider FROM provider_connections c WHERE c.status = 'connected'`;
      if (companyId !== undefined) {
        parameters.push(companyId);
        // An operator may name a company without a working connection: its run fails and says why.
        source = `SELECT co.id AS company_id, c.provider FROM companies co
                    LEFT JOIN provider_connections c ON c.company_id = co.id WHERE co.id = $3`;
      }
      const { affected } = await execute(
        manager,
        `INSERT INTO daily_check_runs (company_id, day, status, attempts, next_attempt_at, provider, created_at)
         SELECT s.company_id, $1::date, 'pending', 0, $2, s.provider, $2 FROM (${source}) s
         ON CONFLICT (company_id, day) DO NOTHING`,
        parameters,
      );
      return affected;
    });
  }

  async reopen(day: string, now: Date, companyId?: string): Promise<number> {
    const { affected } = await execute(
      this.dataSource.manager,
      `UPDATE daily_check_runs
          SET status = 'pending', attempts = 0, next_attempt_at = $2, claim_token = NULL, claimed_by = NULL,
              started_at = NULL, finished_at = NULL, counts = NULL, items_found = NULL, error = NULL
        WHERE day = $1::date AND status IN ('succeeded', 'failed') AND ($3::text IS NULL OR company_id = $3)`,
      [day, now, companyId ?? null],
    );
    return affected;
  }

  async countDue(now: Date, scope: Omit<DailyCheckScope, 'provider'>): Promise<number> {
    const filter = scopeFilter(scope, 2);
    const [row] = await select<{ due: string | number }>(
      this.dataSource.manager,
      `SELECT count(*) AS due FROM daily_check_runs r WHERE ${dueCondition('$1', scope.ignoreBackoff ?? false)}${filter.sql}`,
      [now, ...filter.parameters],
    );
    return toNumber(row?.due ?? 0);
  }

  async claim(
    now: Date,
    leaseUntil: Date,
    worker: string,
    scope: DailyCheckScope,
    limit: number,
  ): Promise<DailyCheckClaim[]> {
    if (limit <= 0) return [];
    const parameters: unknown[] = [now, leaseUntil, worker];
    let providerFilter = `(c.company_id IS NULL OR c.status <> 'connected')`;
    if (scope.provider !== 'none') {
      parameters.push(scope.provider);
      providerFilter = `c.provider = $${parameters.length} AND c.status = 'connected'`;
    }
    const filter = scopeFilter(scope, parameters.length + 1);
    parameters.push(...filter.parameters, limit);
    // Each claimed run gets a token of its own (gen_random_uuid): only its holder may finish it.
    const rows = await select<{
      company_id: string;
      day: string;
      attempts: number | string;
      provider: string | null;
      claim_token: string;
    }>(
      this.dataSource.manager,
      `WITH due AS (
         SELECT r.company_id, r.day, c.provider
           FROM daily_check_runs r
           LEFT JOIN provider_connections c ON c.company_id = r.company_id
          WHERE ${dueCondition('$1', scope.ignoreBackoff ?? false)} AND ${providerFilter}${filter.sql}
          ORDER BY r.next_attempt_at, r.company_id
          LIMIT $${parameters.length}
          FOR UPDATE OF r SKIP LOCKED
       )
       UPDATE daily_check_runs r
          SET status = 'running', attempts = r.attempts + 1, next_attempt_at = $2, claim_token = gen_random_uuid()::text,
              claimed_by = $3, provider = due.provider, started_at = $1, finished_at = NULL
         FROM due
        WHERE r.company_id = due.company_id AND r.day = due.day
       RETURNING r.company_id, r.day::text AS day, r.attempts, r.provider, r.claim_token`,
      parameters,
    );
    return rows.map((row) => ({
      companyId: row.company_id,
      day: row.day,
      attempt: toNumber(row.attempts),
      provider:
        scope.provider === 'none' || row.provider === null || !isProviderKind(row.provider) ? null : row.provider,
      token: row.claim_token,
    }));
  }

  async fail(claim: DailyCheckClaim, error: string, now: Date, retryAt: Date | null): Promise<void> {
    const { affected } = await execute(
      this.dataSource.manager,
      `UPDATE daily_check_runs
          SET status = 'failed', finished_at = $4, next_attempt_at = $5, claim_token = NULL, error = $6
        WHERE company_id = $1 AND day = $2::date AND claim_token = $3 AND status = 'running'`,
      [claim.companyId, claim.day, claim.token, now, retryAt, error.slice(0, 2000)],
    );
    if (affected !== 1) {
      throw new ConcurrencyConflict(
        `the daily check ${claim.day} of ${claim.companyId} is no longer held by this worker`,
      );
    }
  }

  async history(query: { companyId?: string; day?: string; limit: number }): Promise<DailyCheckRun[]> {
    const filter = scopeFilter(query, 2);
    const rows = await select<RunRow>(
      this.dataSource.manager,
      `SELECT ${RUN_COLUMNS} FROM daily_check_runs r WHERE true${filter.sql} ORDER BY r.day DESC, r.company_id LIMIT $1`,
      [query.limit, ...filter.parameters],
    );
    return rows.map((row) => ({
      companyId: row.company_id,
      day: row.day,
      status: row.status,
      attempts: toNumber(row.attempts),
      provider: row.provider !== null && isProviderKind(row.provider) ? row.provider : null,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      counts: row.counts,
      itemsFound: toNullableNumber(row.items_found),
      error: row.error,
      nextAttemptAt: row.next_attempt_at,
    }));
  }
}

/** The success of a claimed run, written in the daily check's unit of work (with its notification). */
export class TypeOrmDailyCheckLedger extends DailyCheckLedger {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async succeed(claim: DailyCheckClaim, counts: DailyCheckCounts, now: Date): Promise<void> {
    const { affected } = await execute(
      this.manager,
      `UPDATE daily_check_runs
          SET status = 'succeeded', finished_at = $4, next_attempt_at = NULL, claim_token = NULL, error = NULL,
              counts = $5::jsonb, items_found = $6
        WHERE company_id = $1 AND day = $2::date AND claim_token = $3 AND status = 'running'`,
      [claim.companyId, claim.day, claim.token, now, JSON.stringify(counts), totalFound(counts)],
    );
    if (affected !== 1) {
      throw new ConcurrencyConflict(
        `the daily check ${claim.day} of ${claim.companyId} is no longer held by this worker`,
      );
    }
  }
}
