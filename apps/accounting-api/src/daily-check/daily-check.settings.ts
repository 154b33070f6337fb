import { DailyCheckOptions } from '@app/application';
import { PROVIDER_KINDS } from '@app/providers';
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
        providers: PROVIDER_KINDS,
        concurrency: Object.fromEntries(
          PROVIDER_KINDS.map((kind) => [kind, e.variables[dailyCheckConcurrencyVariable(kind)] as number | undefined]),
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
