import { NestFactory } from '@nestjs/core';
import { DailyCheckRunner, utcDay, type DailyCheckProgress, type DailyCheckSummary } from '@app/application';
import { Clock, CompanyRepository, NotFound } from '@app/domain';
import { AppModule } from '../app.module';
import type { AppConfig } from '../config/app-config';

const BAR_WIDTH = 30;

/** A progress bar on a terminal stream, redrawn in place: `[######……] 12/40 acme ✓`. */
function progressLine(progress: DailyCheckProgress): string {
  const filled = Math.round((progress.done / Math.max(progress.total, 1)) * BAR_WIDTH);
  const mark = progress.outcome === 'succeeded' ? 'ok' : progress.outcome;
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${progress.done}/${progress.total} ${progress.companyId} ${mark}`;
}

/**
 * `checks run [--company <id>]`: today's daily check now, for every company with a connected
 * provider (or one company), in this process — the service's wiring without HTTP and without its
 * background jobs. Companies already checked today are left alone (one run per company per day);
 * failed ones are tried again at once. An unknown `--company` is an error, not "0 due".
 */
export async function runDailyCheckNow(
  config: AppConfig,
  options: { companyId?: string },
  out: (line: string) => void,
  progress: NodeJS.WritableStream = process.stderr,
): Promise<DailyCheckSummary> {
  process.env.EXECUTOR_ENABLED = 'false';
  process.env.DAILY_CHECK_ENABLED = 'false';
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, databaseRole: 'client' }), {
    logger: false,
    abortOnError: false,
  });
  try {
    await app.init();
    if (options.companyId !== undefined && !(await app.get(CompanyRepository).exists(options.companyId))) {
      throw new NotFound('company', options.companyId);
    }
    const day = utcDay(app.get(Clock).now());
    const tty = (progress as { isTTY?: boolean }).isTTY === true;
    const summary = await app.get(DailyCheckRunner).runDay(day, {
      companyId: options.companyId,
      ignoreBackoff: true,
      onProgress: (p) => progress.write(tty ? `\r${progressLine(p)}\u001b[K` : `${progressLine(p)}\n`),
    });
    if (tty && summary.total > 0) progress.write('\n');
    out(
      `daily check ${day}: ${summary.succeeded} succeeded, ${summary.failed} failed, ${summary.itemsFound} items found (${summary.total} due)`,
    );
    for (const failure of summary.failures) out(`  failed: ${failure.companyId}: ${failure.error}`);
    return summary;
  } finally {
    await app.close();
  }
}
