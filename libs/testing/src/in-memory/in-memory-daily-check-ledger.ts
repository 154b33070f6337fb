import { DailyCheckLedger, type DailyCheckClaim, type DailyCheckCounts } from '@app/application';
import { ConcurrencyConflict } from '@app/domain';
import type { Snapshottable } from './snapshottable';

/** A succeeded daily check run, as the in-memory ledger records it. */
export interface SucceededRun {
  readonly companyId: string;
  readonly day: string;
  readonly counts: DailyCheckCounts;
  readonly finishedAt: Date;
}

/**
 * The daily check's successes in a map. There is no in-memory claim queue, so a claim counts as held
 * until its run succeeded once: a second success of the same run is refused, as the database
 * refuses a claim that was already settled.
 */
export class InMemoryDailyCheckLedger extends DailyCheckLedger implements Snapshottable {
  private succeeded = new Map<string, SucceededRun>();

  async succeed(claim: DailyCheckClaim, counts: DailyCheckCounts, now: Date): Promise<void> {
    const key = JSON.stringify([claim.companyId, claim.day]);
    if (this.succeeded.has(key)) {
      throw new ConcurrencyConflict(
        `the daily check ${claim.day} of ${claim.companyId} is no longer held by this worker`,
      );
    }
    this.succeeded.set(key, { companyId: claim.companyId, day: claim.day, counts: { ...counts }, finishedAt: now });
  }

  /** The runs that succeeded, in the order they did. */
  get runs(): SucceededRun[] {
    return [...this.succeeded.values()];
  }

  snapshot(): unknown {
    return new Map(this.succeeded);
  }

  restore(snapshot: unknown): void {
    this.succeeded = new Map(snapshot as Map<string, SucceededRun>);
  }
}
