import { DailyCheckOptions } from '@app/application';
import { PROVIDERS } from '@app/providers';
import { dailyCheckConcurrencyVariable, type Env } from '../config/env.schema';

/** The daily job's configuration: DAILY_CHECK_ENABLED and DailyCheckOptions' keys. */
export class DailyCheckSettings {
  constructor(
    /** Whether this instance schedules the job (07:00 UTC, catch-up at start, hourly retries). */
    readonly enabled: boolean,
    readonly options: DailyCheckOptions,
  ) {}

  /** The settings from the parsed environment; the jobs are on unless `jobsByDefault` is false (jest). */
  static read(e: Env, defaults: { jobsByDefault: boolean }): DailyCheckSettings {
    return new DailyCheckSettings(
      e.DAILY_CHECK_ENABLED ?? defaults.jobsByDefault,
      new DailyCheckOptions({
        lookbackDays: e.DAILY_CHECK_LOOKBACK_DAYS,
        itemsPerMessage: e.DAILY_CHECK_ITEMS_PER_MESSAGE,
        // A lane for every registered provider: its DAILY_CHECK_CONCURRENCY_<KIND>, else its definition's figure.
        concurrency: Object.fromEntries(
          PROVIDERS.map(({ kind, dailyCheckConcurrency }) => [
            kind,
            (e.variables[dailyCheckConcurrencyVariable(kind)] as number | undefined) ?? dailyCheckConcurrency,
          ]),
        ),
        serial: e.DAILY_CHECK_SERIAL ?? false,
        leaseMs: e.DAILY_CHECK_LEASE_MS,
        retryDelayMs: e.DAILY_CHECK_RETRY_MS,
        maxAttempts: e.DAILY_CHECK_MAX_ATTEMPTS,
        publicUrl: e.PUBLIC_URL ?? null,
      }),
    );
  }
}
