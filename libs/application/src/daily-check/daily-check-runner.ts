import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Clock, ConcurrencyConflict, type OutboundMessage, type ProviderKind } from '@app/domain';
import { addDays, ProviderChecks, utcDay } from '../checks/checks';
import { UnitOfWork } from '../shared/unit-of-work.port';
import type { DailyCheckContext } from './daily-check';
import {
  DailyCheckMetrics,
  DailyCheckRuns,
  type DailyCheckClaim,
  type DailyCheckCounts,
  type DailyCheckScope,
} from './daily-check-runs.port';
import { DailyCheckOptions } from './daily-check.options';
import { DAILY_CHECKS } from './daily-checks';

/** The daily check runs at 07:00 UTC (spec §8). */
export const DAILY_CHECK_HOUR_UTC = 7;

export type DailyCheckOutcome = 'succeeded' | 'failed' | 'lost';

export interface DailyCheckProgress {
  readonly done: number;
  readonly total: number;
  readonly companyId: string;
  readonly outcome: DailyCheckOutcome;
}

export interface DailyCheckSummary {
  /** Runs due when the job started. */
  readonly total: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Runs another instance took over (this one's lease ran out). */
  readonly lost: number;
  readonly itemsFound: number;
  readonly failures: { readonly companyId: string; readonly error: string }[];
}

export interface RunDayOptions {
  readonly companyId?: string;
  /** Take failed runs now, whatever their next attempt time (the operator's `checks run`). */
  readonly ignoreBackoff?: boolean;
  /** Run again the day's finished runs too (the operator's `checks run --force`). */
  readonly force?: boolean;
  readonly onProgress?: (progress: DailyCheckProgress) => void;
}

/** The day of the latest 07:00 UTC slot at or before `now`: today after 07:00, yesterday before. */
export function latestSlotDay(now: Date): string {
  const today = utcDay(now);
  return now.getUTCHours() >= DAILY_CHECK_HOUR_UTC ? today : addDays(today, -1);
}

/**
 * The daily check (spec §1 "Daily check", docs/api.md §4.6): for every company with a connected
 * provider, every check of DAILY_CHECKS in turn, their results posted together to the company's
 * invoices channel through the outbox — once per company per day however many instances run, a
 * failing company recorded, retried later (bounded) and reported without stopping the others,
 * companies checked with a bounded concurrency per provider.
 */
@Injectable()
export class DailyCheckRunner {
  private readonly logger = new Logger(DailyCheckRunner.name);
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly runs: DailyCheckRuns,
    private readonly unitOfWork: UnitOfWork,
    private readonly checks: ProviderChecks,
    private readonly metrics: DailyCheckMetrics,
    private readonly clock: Clock,
    private readonly options: DailyCheckOptions,
  ) {}

  /** The 07:00 job, and the catch-up at start-up: the latest slot's runs, created if missing, then run. */
  runLatestSlot(options: RunDayOptions = {}): Promise<DailyCheckSummary> {
    return this.runDay(latestSlotDay(this.clock.now()), options);
  }

  /** Creates the day's runs (those that exist are left alone, unless `force` reopens them) and runs the due ones. */
  async runDay(day: string, options: RunDayOptions = {}): Promise<DailyCheckSummary> {
    await this.runs.schedule(day, this.clock.now(), options.companyId);
    if (options.force) await this.runs.reopen(day, this.clock.now(), options.companyId);
    return this.process(
      { day, companyId: options.companyId, ignoreBackoff: options.ignoreBackoff },
      options.onProgress,
    );
  }

  /** Runs whatever is due of any day: failed runs whose retry time came, runs whose lease lapsed. */
  resume(): Promise<DailyCheckSummary> {
    return this.process({});
  }

  private async process(
    scope: Omit<DailyCheckScope, 'provider'>,
    onProgress?: (progress: DailyCheckProgress) => void,
  ): Promise<DailyCheckSummary> {
    const total = await this.runs.countDue(this.clock.now(), scope);
    const summary = {
      total,
      succeeded: 0,
      failed: 0,
      lost: 0,
      itemsFound: 0,
      failures: [] as { companyId: string; error: string }[],
    };
    if (total === 0) return summary;
    let done = 0;
    const providers = Object.keys(this.options.concurrency) as (ProviderKind | 'none')[];
    const lanesOf = (provider: ProviderKind | 'none') =>
      this.options.serial ? 1 : Math.min(this.options.concurrency[provider], total);
    const feeds = new Map(
      providers.map((provider) => {
        const take = (limit: number) => {
          const now = this.clock.now();
          return this.runs.claim(
            now,
            new Date(now.getTime() + this.options.leaseMs),
            this.workerId,
            { ...scope, provider },
            limit,
          );
        };
        return [provider, new ClaimFeed(take, Math.min(CLAIM_BATCH, lanesOf(provider)))] as const;
      }),
    );
    const lane = async (provider: ProviderKind | 'none'): Promise<void> => {
      const feed = feeds.get(provider)!;
      for (;;) {
        const claim = await feed.next();
        if (!claim) return;
        const result = await this.runOne(claim);
        summary[result.outcome]++;
        summary.itemsFound += result.itemsFound;
        if (result.error !== null) summary.failures.push({ companyId: claim.companyId, error: result.error });
        done++;
        onProgress?.({ done, total: Math.max(total, done), companyId: claim.companyId, outcome: result.outcome });
      }
    };
    if (this.options.serial) {
      for (const provider of providers) await lane(provider);
      return summary;
    }
    const lanes = providers.flatMap((provider) => Array.from({ length: lanesOf(provider) }, () => lane(provider)));
    await Promise.all(lanes);
    return summary;
  }

  private async runOne(
    claim: DailyCheckClaim,
  ): Promise<{ outcome: DailyCheckOutcome; itemsFound: number; error: string | null }> {
    const provider = claim.provider ?? 'none';
    try {
      if (claim.provider === null) throw new Error('the company has no connected accounting provider');
      const context: DailyCheckContext = {
        companyId: claim.companyId,
        day: claim.day,
        lookbackDays: this.options.lookbackDays,
        limit: this.options.itemsPerMessage,
        checks: this.checks,
        publicUrl: this.options.publicUrl,
      };
      const counts: Record<string, number> = {};
      const payload: Record<string, unknown> = { date: claim.day, provider: claim.provider };
      for (const check of DAILY_CHECKS) {
        const result = await check.run(context);
        counts[check.id] = result.count;
        Object.assign(payload, result.payload);
      }
      const message: OutboundMessage = { companyId: claim.companyId, target: 'invoices', kind: 'daily_check', payload };
      await this.unitOfWork.run(async (ports) => {
        await ports.dailyChecks.succeed(claim, counts, this.clock.now());
        await ports.notifier.notify([message]);
      });
      const itemsFound = totalFound(counts);
      this.metrics.runFinished(provider, 'succeeded', itemsFound);
      return { outcome: 'succeeded', itemsFound, error: null };
    } catch (error) {
      if (error instanceof ConcurrencyConflict) {
        this.logger.warn(`daily check ${claim.day} of ${claim.companyId} was taken over by another instance`);
        return { outcome: 'lost', itemsFound: 0, error: null };
      }
      const message = error instanceof Error ? error.message : String(error);
      const now = this.clock.now();
      const retryAt =
        claim.attempt < this.options.maxAttempts ? new Date(now.getTime() + this.options.retryDelayMs) : null;
      try {
        await this.runs.fail(claim, message, now, retryAt);
      } catch (recordError) {
        this.logger.error(
          `daily check ${claim.day} of ${claim.companyId} failed and could not be recorded: ${String(recordError)}`,
        );
      }
      this.metrics.runFinished(provider, 'failed', 0);
      this.logger.warn(
        `daily check ${claim.day} of ${claim.companyId} failed (attempt ${claim.attempt}${retryAt ? `, retry at ${retryAt.toISOString()}` : ', giving up'}): ${message}`,
      );
      return { outcome: 'failed', itemsFound: 0, error: message };
    }
  }
}

/**
 * Runs claimed per round trip, at most: lanes share one provider's claims instead of each claiming
 * its own (with 500 lanes, single claims cost the database more than the checks' own writes).
 */
export const CLAIM_BATCH = 25;

/**
 * The claimed runs of one provider, handed to its lanes one at a time. An empty feed claims the
 * next batch once for every lane waiting on it; a claim that finds nothing ends the feed. Runs wait
 * here at most as long as a lane takes to free up: far less than their lease.
 */
export class ClaimFeed {
  private readonly ready: DailyCheckClaim[] = [];
  private refill: Promise<void> | null = null;
  private finished = false;

  constructor(
    private readonly take: (limit: number) => Promise<DailyCheckClaim[]>,
    private readonly batch: number,
  ) {}

  async next(): Promise<DailyCheckClaim | null> {
    for (;;) {
      const claim = this.ready.shift();
      if (claim) return claim;
      if (this.finished) return null;
      this.refill ??= this.take(this.batch)
        .then((claims) => {
          if (claims.length === 0) this.finished = true;
          this.ready.push(...claims);
        })
        .finally(() => {
          this.refill = null;
        });
      await this.refill;
    }
  }
}

/** The sum of a run's counts: the items its checks found. */
export function totalFound(counts: DailyCheckCounts): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}
