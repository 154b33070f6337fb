import { ImportBookingHistoryHandler, type ImportHistoryResult } from '@app/application';
import { CompanyRepository, NotFound } from '@app/domain';
import { withCliContext } from '../cli-context';
import { progressReport } from '../cli-progress-report';
import type { AppConfig } from '../config/app-config';

/**
 * `history import <company>`: reads the company's last 12 months of bookings from its provider
 * (resuming an interrupted read) and refreshes its suggestions, in this process (the CLI's
 * application context, `withCliContext`), with its progress on `progress` (stderr): a bar on a
 * terminal, else a line per page read.
 */
export async function importHistoryNow(
  config: AppConfig,
  companyId: string,
  actor: string,
  out: (line: string) => void,
  progress: NodeJS.WritableStream = process.stderr,
): Promise<ImportHistoryResult> {
  return withCliContext(config, async (app) => {
    const bar = progressReport(progress, 'history', { percent: true });
    try {
      if (!(await app.get(CompanyRepository).exists(companyId))) throw new NotFound('company', companyId);
      const result = await app.get(ImportBookingHistoryHandler).execute({
        companyId,
        actor,
        channel: 'web',
        onProgress: (state, done) =>
          bar.update(Math.round(done * 100), 100, `${state.bookingsRead} bookings, ${state.pagesRead} pages`),
      });
      bar.stop();
      out(
        `history of ${companyId} (${result.import.provider}, ${result.import.periodFrom} to ${result.import.periodTo}): ` +
          `${result.import.bookingsRead} bookings read, ${result.suggested} suggestions made or refreshed`,
      );
      return result;
    } finally {
      bar.stop();
    }
  });
}
