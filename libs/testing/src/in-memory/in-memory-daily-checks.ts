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
import { ConcurrencyConflict, type ProviderKind } from '@app/domain';
import type { InMemoryCompanyRepository } from './in-memory-company-repository';
import type { InMemoryProviderConnectionRepository } from './in-memory-provider-connection-repository';
import { copy, type Snapshottable } from './snapshottable';

interface Row {
  companyId: string;
  day: string;
  status: DailyCheckRunStatus;
  attempts: number;
  provider: ProviderKind | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  counts: DailyCheckCounts | null;
  itemsFound: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  token: string | null;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The daily check's run records in a map: `runs` is the DailyCheckRuns port, and this object the
 * DailyCheckLedger a unit of work hands out. Same rules as `daily_check_runs`
 * (daily-check-runs.contract.ts): one run per company and day, claimed oldest due first (then by
 * company) with a lease and a token of its own, finished only by that token's holder. A claim reads
 * and marks its rows without awaiting in between, as FOR UPDATE SKIP LOCKED makes the SQL's atomic.
 */
export class InMemoryDailyChecks extends DailyCheckLedger implements Snapshottable {
  private rows = new Map<string, Row>();
  private tokens = 0;

  constructor(
    private readonly companies: InMemoryCompanyRepository,
    private readonly connections: InMemoryProviderConnectionRepository,
  ) {
    super();
  }

  readonly runs: DailyCheckRuns = {
    schedule: async (day: string, now: Date, companyId?: string): Promise<number> => {
      let sources: { companyId: string; provider: ProviderKind | null }[];
      if (companyId === undefined) {
        sources = this.connections
          .all()
          .filter((c) => c.status === 'connected')
          .map((c) => ({ companyId: c.companyId, provider: c.provider }));
      } else {
        // An operator may name a company without a working connection: its run fails and says why.
        const exists = await this.companies.exists(companyId);
        const connection = this.connections.all().find((c) => c.companyId === companyId);
        sources = exists ? [{ companyId, provider: connection?.provider ?? null }] : [];
      }
      let created = 0;
      for (const source of sources) {
        const key = keyOf(source.companyId, day);
        if (this.rows.has(key)) continue;
        this.rows.set(key, {
          companyId: source.companyId,
          day,
          status: 'pending',
          attempts: 0,
          provider: source.provider,
          startedAt: null,
          finishedAt: null,
          counts: null,
          itemsFound: null,
          error: null,
          nextAttemptAt: now,
          token: null,
        });
        created++;
      }
      return created;
    },

    reopen: async (day: string, now: Date, companyId?: string): Promise<number> => {
      await Promise.resolve();
      let reopened = 0;
      for (const row of this.rows.values()) {
        if (row.day !== day || (companyId !== undefined && row.companyId !== companyId)) continue;
        if (row.status !== 'succeeded' && row.status !== 'failed') continue;
        Object.assign(row, {
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          token: null,
          startedAt: null,
          finishedAt: null,
          counts: null,
          itemsFound: null,
          error: null,
        });
        reopened++;
      }
      return reopened;
    },

    countDue: async (now: Date, scope: Omit<DailyCheckScope, 'provider'>): Promise<number> =>
      [...this.rows.values()].filter((row) => isDue(row, now, scope.ignoreBackoff ?? false) && inScope(row, scope))
        .length,

    claim: async (
      now: Date,
      leaseUntil: Date,
      worker: string,
      scope: DailyCheckScope,
      limit: number,
    ): Promise<DailyCheckClaim[]> => {
      await Promise.resolve();
      if (limit <= 0) return [];
      const connections = new Map(this.connections.all().map((c) => [c.companyId, c]));
      const due = [...this.rows.values()]
        .filter((row) => {
          if (!isDue(row, now, scope.ignoreBackoff ?? false) || !inScope(row, scope)) return false;
          const connection = connections.get(row.companyId);
          return scope.provider === 'none'
            ? connection === undefined || connection.status !== 'connected'
            : connection?.provider === scope.provider && connection.status === 'connected';
        })
        .sort(
          (a, b) =>
            (a.nextAttemptAt as Date).getTime() - (b.nextAttemptAt as Date).getTime() ||
            byText(a.companyId, b.companyId),
        )
        .slice(0, limit);
      return due.map((row) => {
        Object.assign(row, {
          status: 'running',
          attempts: row.attempts + 1,
          nextAttemptAt: leaseUntil,
          token: `daily-check-${++this.tokens}`,
          provider: connections.get(row.companyId)?.provider ?? null,
          startedAt: now,
          finishedAt: null,
        });
        return {
          companyId: row.companyId,
          day: row.day,
          attempt: row.attempts,
          provider: scope.provider === 'none' ? null : row.provider,
          token: row.token as string,
        };
      });
    },

    fail: async (claim: DailyCheckClaim, error: string, now: Date, retryAt: Date | null): Promise<void> => {
      Object.assign(this.held(claim), {
        status: 'failed',
        finishedAt: now,
        nextAttemptAt: retryAt,
        token: null,
        error: error.slice(0, 2000),
      });
    },

    history: async (query: { companyId?: string; day?: string; limit: number }): Promise<DailyCheckRun[]> =>
      [...this.rows.values()]
        .filter((row) => inScope(row, query))
        .sort((a, b) => byText(b.day, a.day) || byText(a.companyId, b.companyId))
        .slice(0, query.limit)
        .map(({ token: _token, ...run }) => copy(run)),
  } as DailyCheckRuns;

  async succeed(claim: DailyCheckClaim, counts: DailyCheckCounts, now: Date): Promise<void> {
    Object.assign(this.held(claim), {
      status: 'succeeded',
      finishedAt: now,
      nextAttemptAt: null,
      token: null,
      error: null,
      counts: { ...counts },
      itemsFound: totalFound(counts),
    });
  }

  snapshot(): unknown {
    return new Map([...this.rows].map(([key, row]) => [key, copy(row)]));
  }

  restore(snapshot: unknown): void {
    this.rows = new Map(snapshot as Map<string, Row>);
  }

  private held(claim: DailyCheckClaim): Row {
    const row = this.rows.get(keyOf(claim.companyId, claim.day));
    if (!row || row.token !== claim.token || row.status !== 'running') {
      throw new ConcurrencyConflict(
        `the daily check ${claim.day} of ${claim.companyId} is no longer held by this worker`,
      );
    }
    return row;
  }
}

function keyOf(companyId: string, day: string): string {
  return JSON.stringify([companyId, day]);
}

function isDue(row: Row, now: Date, ignoreBackoff: boolean): boolean {
  if (ignoreBackoff) {
    return (
      ((row.status === 'pending' || row.status === 'running') &&
        row.nextAttemptAt !== null &&
        row.nextAttemptAt <= now) ||
      (row.status === 'failed' && row.nextAttemptAt !== null)
    );
  }
  return row.status !== 'succeeded' && row.nextAttemptAt !== null && row.nextAttemptAt <= now;
}

function inScope(row: Row, scope: { day?: string; companyId?: string }): boolean {
  return (
    (scope.day === undefined || row.day === scope.day) &&
    (scope.companyId === undefined || row.companyId === scope.companyId)
  );
}
