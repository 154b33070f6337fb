import { DailyCheckOptions } from '@app/application';
import type { EnvSettings } from '../config/env-settings';

/** The daily job's configuration: DAILY_CHECK_ENABLED and DailyCheckOptions' keys. */
export class DailyCheckSettings {
  constructor(
    /** Whether this instance schedules the job (07:00 UTC, catch-up at start, hourly retries). */
    readonly enabled: boolean,
    readonly options: DailyCheckOptions,
  ) {}

  /** Reads the settings; problems go to `e` (loadConfig reports them with all the others). */
  static read(e: EnvSettings, embedded = false): DailyCheckSettings {
    return new DailyCheckSettings(
      e.flag('DAILY_CHECK_ENABLED'),
      new DailyCheckOptions({
        lookbackDays: e.int('DAILY_CHECK_LOOKBACK_DAYS'),
        itemsPerMessage: e.int('DAILY_CHECK_ITEMS_PER_MESSAGE', 0),
        concurrency: {
          tripletex: e.int('DAILY_CHECK_CONCURRENCY_TRIPLETEX'),
          fiken: e.int('DAILY_CHECK_CONCURRENCY_FIKEN'),
        },
        serial: e.optionalFlag('DAILY_CHECK_SERIAL') ?? embedded,
        leaseMs: e.int('DAILY_CHECK_LEASE_MS'),
        retryDelayMs: e.int('DAILY_CHECK_RETRY_MS'),
        maxAttempts: e.int('DAILY_CHECK_MAX_ATTEMPTS'),
      }),
    );
  }
}
