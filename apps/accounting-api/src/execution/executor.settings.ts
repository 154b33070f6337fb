import { ExecutorOptions } from '@app/application';
import type { Env } from '../config/env.schema';

/** The executor's configuration: EXECUTOR_ENABLED, EXECUTOR_POLL_MS and ExecutorOptions' keys. */
export class ExecutorSettings {
  constructor(
    /** Whether this instance runs the worker loop (several instances may: claims never overlap). */
    readonly enabled: boolean,
    /** Pause between rounds when nothing was due. */
    readonly pollMs: number,
    readonly options: ExecutorOptions,
  ) {}

  /** The settings from the parsed environment; the jobs are on unless `jobsByDefault` is false (jest). */
  static read(e: Env, defaults: { jobsByDefault: boolean }): ExecutorSettings {
    return new ExecutorSettings(
      e.EXECUTOR_ENABLED ?? defaults.jobsByDefault,
      e.EXECUTOR_POLL_MS ?? 2_000,
      new ExecutorOptions({
        batchSize: e.EXECUTOR_BATCH_SIZE,
        concurrency: e.EXECUTOR_CONCURRENCY,
        leaseMs: e.EXECUTOR_LEASE_MS,
        retryBaseMs: e.EXECUTOR_RETRY_BASE_MS,
        retryMaxMs: e.EXECUTOR_RETRY_MAX_MS,
        maxTransientAttempts: e.EXECUTOR_MAX_TRANSIENT_ATTEMPTS,
        failedRetryMs: e.EXECUTOR_FAILED_RETRY_MS,
        reconcilePauseMs: e.EXECUTOR_RECONCILE_PAUSE_MS,
        rateLimitWaitMs: e.EXECUTOR_RATE_LIMIT_WAIT_MS,
      }),
    );
  }
}
