import { Counter } from 'prom-client';
import { DAILY_CHECKS, DailyCheckMetrics } from '@app/application';
import { HttpMetrics } from '../metrics/http-metrics';

/** The daily job's counters, on the service's registry (GET /metrics). */
export class PrometheusDailyCheckMetrics extends DailyCheckMetrics {
  private readonly runs: Counter<'provider' | 'outcome'>;
  private readonly items: Counter<'provider'>;

  constructor(metrics: HttpMetrics) {
    super();
    this.runs = new Counter({
      name: 'daily_check_runs_total',
      help: 'Daily check runs of a company finished, by provider and outcome (succeeded, failed)',
      labelNames: ['provider', 'outcome'] as const,
      registers: [metrics.registry],
    });
    this.items = new Counter({
      name: 'daily_check_items_found_total',
      help: `Items found by the daily check, summed over its checks (${DAILY_CHECKS.map((check) => check.title.toLowerCase()).join(', ')})`,
      labelNames: ['provider'] as const,
      registers: [metrics.registry],
    });
  }

  runFinished(provider: string, outcome: 'succeeded' | 'failed', itemsFound: number): void {
    this.runs.inc({ provider, outcome });
    if (itemsFound > 0) this.items.inc({ provider }, itemsFound);
  }
}
