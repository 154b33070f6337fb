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
import { progressReport } from '../cli-progress-report';
import type { AppConfig } from '../config/app-config';

/** What the progress says of the company just checked: `acme ok`, `acme failed`. */
function progressDetail(progress: DailyCheckProgress): string {
  return `${progress.companyId} ${progress.outcome === 'succeeded' ? 'ok' : progress.outcome}`;
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
    // A bar on a terminal; otherwise a line for the first company, every 10th and the last.
    const bar = progressReport(progress, 'checks', { every: 10 });
    const summary = await app
      .get(DailyCheckRunner)
      .runDay(day, {
        companyId: options.companyId,
        ignoreBackoff: true,
        force: options.force,
        onProgress: (p) => bar.update(p.done, p.total, progressDetail(p)),
      })
      .finally(() => bar.stop());
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
