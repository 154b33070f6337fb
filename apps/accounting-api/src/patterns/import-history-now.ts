import { SingleBar } from 'cli-progress';
import { ImportBookingHistoryHandler, type ImportHistoryResult } from '@app/application';
import { CompanyRepository, NotFound } from '@app/domain';
import { withCliContext } from '../cli-context';
import type { AppConfig } from '../config/app-config';

/**
 * `history import <company>`: reads the company's last 12 months of bookings from its provider
 * (resuming an interrupted read) and refreshes its suggestions, in this process (the CLI's
 * application context, `withCliContext`), with a progress bar (cli-progress) on
 * `progress` (stderr) when it is a terminal.
 */
export async function importHistoryNow(
  config: AppConfig,
  companyId: string,
  actor: string,
  out: (line: string) => void,
  progress: NodeJS.WritableStream = process.stderr,
): Promise<ImportHistoryResult> {
  return withCliContext(config, async (app) => {
    const bar = new SingleBar({
      stream: progress,
      format: 'history [{bar}] {percentage}% | {bookings} bookings, {pages} pages',
      noTTYOutput: false,
      hideCursor: true,
    });
    try {
      if (!(await app.get(CompanyRepository).exists(companyId))) throw new NotFound('company', companyId);
      bar.start(100, 0, { bookings: 0, pages: 0 });
      const result = await app.get(ImportBookingHistoryHandler).execute({
        companyId,
        actor,
        channel: 'web',
        onProgress: (state, done) =>
          bar.update(Math.round(done * 100), { bookings: state.bookingsRead, pages: state.pagesRead }),
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
