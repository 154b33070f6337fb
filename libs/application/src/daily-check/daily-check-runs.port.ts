import type { ProviderKind } from '@app/domain';

export const DAILY_CHECK_RUN_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;
export type DailyCheckRunStatus = (typeof DAILY_CHECK_RUN_STATUSES)[number];

/** One company's daily check of one day, as the run history keeps it. */
export interface DailyCheckRun {
  readonly companyId: string;
  /** `YYYY-MM-DD` (UTC) of the 07:00 slot the run belongs to. */
  readonly day: string;
  readonly status: DailyCheckRunStatus;
  readonly attempts: number;
  readonly provider: ProviderKind | null;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  /** What each check found, by the check's id; null until the run succeeds. */
  readonly counts: DailyCheckCounts | null;
  readonly itemsFound: number | null;
  readonly error: string | null;
  /** When a failed run is tried again; null when it will not be (succeeded, or out of attempts). */
  readonly nextAttemptAt: Date | null;
}

/** A run claimed by one worker until `leaseUntil`; only the holder of `token` may finish it. */
export interface DailyCheckClaim {
  readonly companyId: string;
  readonly day: string;
  readonly attempt: number;
  /** The company's provider now, or null when it has none any more. */
  readonly provider: ProviderKind | null;
  readonly token: string;
}

/** How many items each daily check found, by the check's id (DAILY_CHECKS). */
export type DailyCheckCounts = Readonly<Record<string, number>>;

/** Which runs a worker may take: one day and/or one company; `provider` partitions the workers. */
export interface DailyCheckScope {
  readonly day?: string;
  readonly companyId?: string;
  /** Only companies connected to this provider; `none` for runs whose company has no connection. */
  readonly provider: ProviderKind | 'none';
  /** Take failed runs now, whatever their next attempt time (the operator's `checks run`). */
  readonly ignoreBackoff?: boolean;
}

/**
 * The daily check's run records: exactly one per (company, day), whatever the number of
 * instances. `schedule` creates the day's records (INSERT … ON CONFLICT DO NOTHING, under an
 * advisory lock); `claim` takes due ones with FOR UPDATE SKIP LOCKED and a lease; a run's success
 * is recorded through the unit of work's DailyCheckLedger, with its results' notification.
 */
export abstract class DailyCheckRuns {
  /** Creates pending runs of `day` for every company with a connected provider (or just `companyId`); returns how many are new. */
  abstract schedule(day: string, now: Date, companyId?: string): Promise<number>;

  /**
   * Makes the finished runs of `day` (succeeded or failed; all companies, or just `companyId`)
   * pending again from now, their attempts from zero, to be run once more (`checks run --force`).
   * A running one is left to its holder. Returns how many were reopened.
   */
  abstract reopen(day: string, now: Date, companyId?: string): Promise<number>;

  /** How many runs in scope are due now (pending, failed and due, or running with a lapsed lease). */
  abstract countDue(now: Date, scope: Omit<DailyCheckScope, 'provider'>): Promise<number>;

  /**
   * Takes up to `limit` due runs in scope for `worker` until `leaseUntil`, oldest due first; none
   * when nothing is due (or every due run is held by another worker).
   */
  abstract claim(
    now: Date,
    leaseUntil: Date,
    worker: string,
    scope: DailyCheckScope,
    limit: number,
  ): Promise<DailyCheckClaim[]>;

  /** Records the failure; `retryAt` null gives up. */
  abstract fail(claim: DailyCheckClaim, error: string, now: Date, retryAt: Date | null): Promise<void>;

  /** The newest runs first. */
  abstract history(query: { companyId?: string; day?: string; limit: number }): Promise<DailyCheckRun[]>;
}

/**
 * Records a run's success inside the unit of work that enqueues its results' notification, so that
 * both commit together; refused (ConcurrencyConflict) when the claim is no longer held, so a day's
 * results are posted once.
 */
export abstract class DailyCheckLedger {
  abstract succeed(claim: DailyCheckClaim, counts: DailyCheckCounts, now: Date): Promise<void>;
}

/** Counts the daily job's runs, failures and items found (Prometheus in the service). */
export abstract class DailyCheckMetrics {
  abstract runFinished(provider: string, outcome: 'succeeded' | 'failed', itemsFound: number): void;
}

export class NoDailyCheckMetrics extends DailyCheckMetrics {
  runFinished(): void {
    // Nothing to count outside the service (CLI, tests).
  }
}
