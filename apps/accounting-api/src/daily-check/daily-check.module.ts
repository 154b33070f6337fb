import { Module, type DynamicModule } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { DailyCheckMetrics, DailyCheckOptions, DailyCheckRunner } from '@app/application';
import { HttpMetrics } from '../metrics/http-metrics';
import { ChecksModule } from '../checks/checks.module';
import { DailyCheckScheduler } from './daily-check.scheduler';
import { DailyCheckSettings } from './daily-check.settings';
import { PrometheusDailyCheckMetrics } from './prometheus-daily-check.metrics';

/** The daily check at 07:00 UTC (docs/api.md §4.6): its runner, its schedule and its metrics. */
@Module({})
export class DailyCheckModule {
  /** `schedule: false` (the CLI): the runner without the schedule and the start-up catch-up. */
  static forRoot(settings: DailyCheckSettings, { schedule }: { schedule: boolean }): DynamicModule {
    const scheduler = schedule ? [DailyCheckScheduler] : [];
    return {
      module: DailyCheckModule,
      imports: [...(schedule ? [ScheduleModule.forRoot()] : []), ChecksModule],
      providers: [
        { provide: DailyCheckSettings, useValue: settings },
        { provide: DailyCheckOptions, useValue: settings.options },
        {
          provide: DailyCheckMetrics,
          useFactory: (metrics: HttpMetrics) => new PrometheusDailyCheckMetrics(metrics),
          inject: [HttpMetrics],
        },
        DailyCheckRunner,
        ...scheduler,
      ],
      exports: [DailyCheckRunner, ...scheduler],
    };
  }
}
