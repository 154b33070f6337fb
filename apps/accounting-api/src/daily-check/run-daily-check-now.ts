import {
  DailyCheckRunner,
  DailyCheckRuns,
  utcDay,
  type DailyCheckProgress,
  type DailyCheckRun,
  type DailyCheckSummary,
} from '@app/application';
import { Clock, CompanyRepository, NotFound } from '@app/domain';
import { withCliContext } from '../cli-context';
import type { AppConfig } from '../config/app-config';

const BAR_WIDTH = 30;

/** A progress bar on a terminal stream, redrawn in place: `[######……] 12/40 acme ✓`. */
function progressLine(progress: DailyCheckProgress): string {
  const filled = Math.round((progress.done / Math.max(progress.total, 1)) * BAR_WIDTH);
  const mark = progress.outcome === 'succeeded' ? 'ok' : progress.outcome;
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${progress.done}/${progress.total} ${progress.companyId} ${mark}`;
}

/** Why a day's runs were not due: how many ran already, run elsewhere now, or wait for a retry. */
function notDueReason(runs: readonly DailyCheckRun[]): string {
  if (runs.length === 0) return 'no company has a daily check to run';
  const count = (status: DailyCheckRun['status']) => runs.filter((run) => run.status === status).length;
  const parts = [
    [count('succeeded'), 'already run today'],
    [count('running'), 'running in another process'],
    [count('failed'), 'failed, not retried'],
    [count('pending'), 'waiting'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(', ');
}

/**
 * `checks run [--company <id>]`: today's daily check now, for every company with a connected
 * provider (or one company), claimed and run by this command itself in the CLI's application
 * context (no scheduler or catch-up runs beside it, so what it prints is what it did). Companies
 * already checked today are left alone (one run per company per day), and the output says so,
 * unless `force` runs them again (and posts their results again); failed ones are tried again at once. An unknown `--company` is an error, not "0 due".
 */
export async function runDailyCheckNow(
  config: AppConfig,
  options: { companyId?: string; force?: boolean },
  out: (line: string) => void,
  progress: NodeJS.WritableStream = process.stderr,
): Promise<DailyCheckSummary> {
  return withCliContext(config, async (app) => {
    if (options.companyId !== undefined && !(await app.get(CompanyRepository).exists(options.companyId))) {
      throw new NotFound('company', options.companyId);
    }
    const day = utcDay(app.get(Clock).now());
    const tty = (progress as { isTTY?: boolean }).isTTY === true;
    const summary = await app.get(DailyCheckRunner).runDay(day, {
      companyId: options.companyId,
      ignoreBackoff: true,
      force: options.force,
      onProgress: (p) => progress.write(tty ? `\r${progressLine(p)}\u001b[K` : `${progressLine(p)}\n`),
    });
    if (tty && summary.total > 0) progress.write('\n');
    out(
      `daily check ${day}: ${summary.succeeded} succeeded, ${summary.failed} failed, ${summary.itemsFound} items found (${summary.total} due)`,
    );
    if (summary.total === 0) {
      const runs = await app.get(DailyCheckRuns).history({ day, companyId: options.companyId, limit: 100_000 });
      out(`  nothing due: ${notDueReason(runs)}${runs.length > 0 ? ' (--force runs them again)' : ''}`);
    }
    if (summary.lost > 0) out(`  ${summary.lost} taken over by another process (its lease ran out)`);
    for (const failure of summary.failures) out(`  failed: ${failure.companyId}: ${failure.error}`);
    return summary;
  });
}
