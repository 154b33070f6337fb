import { Global, Module } from '@nestjs/common';
import { DailyCheckMetrics } from '@app/application';
import { PrometheusDailyCheckMetrics } from '../daily-check/prometheus-daily-check.metrics';
import { HttpMetrics } from './http-metrics';

/**
 * The service's Prometheus registry (`HttpMetrics`, served on GET /metrics) and the adapter of the
 * application's `DailyCheckMetrics` port on it. Global: the HTTP middleware and the daily check's
 * runner (in ApplicationModule) both write to the one registry of the process.
 */
@Global()
@Module({
  providers: [
    { provide: HttpMetrics, useFactory: () => new HttpMetrics() },
    {
      provide: DailyCheckMetrics,
      inject: [HttpMetrics],
      useFactory: (metrics: HttpMetrics) => new PrometheusDailyCheckMetrics(metrics),
    },
  ],
  exports: [HttpMetrics, DailyCheckMetrics],
})
export class MetricsModule {}
