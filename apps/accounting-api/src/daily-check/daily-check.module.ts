import { Module, type DynamicModule } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { DailyCheckScheduler } from './daily-check.scheduler';
import { DailyCheckSettings } from './daily-check.settings';

/**
 * The daily check's schedule at 07:00 UTC (docs/api.md §4.6), driving DailyCheckRunner (a use case
 * of ApplicationModule, configured with `settings.options` there).
 */
@Module({})
export class DailyCheckModule {
  /** `schedule: false` (the CLI): the runner without the schedule and the start-up catch-up. */
  static forRoot(settings: DailyCheckSettings, { schedule }: { schedule: boolean }): DynamicModule {
    const scheduler = schedule ? [DailyCheckScheduler] : [];
    return {
      module: DailyCheckModule,
      imports: schedule ? [ScheduleModule.forRoot()] : [],
      providers: [{ provide: DailyCheckSettings, useValue: settings }, ...scheduler],
      exports: scheduler,
    };
  }
}
