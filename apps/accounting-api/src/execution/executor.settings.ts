import { ExecutorOptions } from '@app/application';
import type { EnvSettings } from '../config/env-settings';

/** The executor's configuration: EXECUTOR_ENABLED, EXECUTOR_POLL_MS and ExecutorOptions' keys. */
export class ExecutorSettings {
  constructor(
    /** Whether this instance runs the worker loop (several instances may: claims never overlap). */
    readonly enabled: boolean,
    /** Pause between rounds when nothing was due. */
    readonly pollMs: number,
    readonly options: ExecutorOptions,
  ) {}

  /** Reads the settings; problems go to `e` (loadConfig reports them with all the others). */
  static read(e: EnvSettings, embedded = false): ExecutorSettings {
    return new ExecutorSettings(
      e.flag('EXECUTOR_ENABLED'),
      e.int('EXECUTOR_POLL_MS') ?? 2_000,
      new ExecutorOptions({
        batchSize: e.int('EXECUTOR_BATCH_SIZE'),
        // Embedded PGlite serves one connection's statements at a time: one execution at a time.
        concurrency: e.int('EXECUTOR_CONCURRENCY') ?? (embedded ? 1 : undefined),
        leaseMs: e.int('EXECUTOR_LEASE_MS'),
        retryBaseMs: e.int('EXECUTOR_RETRY_BASE_MS'),
        retryMaxMs: e.int('EXECUTOR_RETRY_MAX_MS'),
        maxTransientAttempts: e.int('EXECUTOR_MAX_TRANSIENT_ATTEMPTS'),
        failedRetryMs: e.int('EXECUTOR_FAILED_RETRY_MS'),
      }),
    );
  }
}
