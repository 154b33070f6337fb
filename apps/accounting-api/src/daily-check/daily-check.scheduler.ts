import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { DailyCheckRunner, type DailyCheckSummary } from '@app/application';
import { DailyCheckSettings } from './daily-check.settings';

/**
 * When the daily check runs in this instance: at 07:00 UTC; at start-up, catching up the latest
 * 07:00 slot when its runs are missing or unfinished (the service was down); and every hour, the
 * failed companies whose retry time came. Every instance may schedule: the run records make each
 * company's check happen once a day. One job at a time per instance.
 */
@Injectable()
export class DailyCheckScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DailyCheckScheduler.name);
  private current: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly runner: DailyCheckRunner,
    private readonly settings: DailyCheckSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.enabled) void this.enqueue('catch-up', () => this.runner.runLatestSlot());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.current;
  }

  @Cron('0 7 * * *', { name: 'daily-check', timeZone: 'UTC' })
  daily(): Promise<void> {
    return this.settings.enabled ? this.enqueue('07:00', () => this.runner.runLatestSlot()) : Promise.resolve();
  }

  @Cron('30 * * * *', { name: 'daily-check-retries', timeZone: 'UTC' })
  retries(): Promise<void> {
    return this.settings.enabled ? this.enqueue('retries', () => this.runner.resume()) : Promise.resolve();
  }

  /** Runs one job after the one in progress; logs its summary; never rejects. */
  private enqueue(trigger: string, job: () => Promise<DailyCheckSummary>): Promise<void> {
    const next = this.current.then(async () => {
      if (this.stopped) return;
      try {
        const summary = await job();
        if (summary.total > 0) {
          this.logger.log(
            `daily check (${trigger}): ${summary.succeeded} succeeded, ${summary.failed} failed, ${summary.itemsFound} items found` +
              (summary.failures.length
                ? `; failed: ${summary.failures.map((f) => `${f.companyId} (${f.error})`).join(', ')}`
                : ''),
          );
        }
      } catch (error) {
        this.logger.error(
          `daily check (${trigger}) stopped: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
    this.current = next;
    return next;
  }
}
