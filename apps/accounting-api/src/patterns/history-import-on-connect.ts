import { Injectable, Logger } from '@nestjs/common';
import { ImportBookingHistoryHandler } from '@app/application';

/** Whether a company's booking history is read as soon as it connects (HISTORY_IMPORT_ON_CONNECT). */
export class HistoryImportOnConnect {
  constructor(readonly enabled: boolean) {}
}

/**
 * Starts the history import of a company that has just connected, without making the person who
 * connected wait for it: the import's progress and end are in GET /v1/patterns/suggestions, a
 * failure is logged and kept there, and POST /v1/patterns/suggestions/refresh resumes it.
 */
@Injectable()
export class HistoryImportStarter {
  private readonly logger = new Logger(HistoryImportStarter.name);

  constructor(
    private readonly settings: HistoryImportOnConnect,
    private readonly importer: ImportBookingHistoryHandler,
  ) {}

  startFor(companyId: string): void {
    if (!this.settings.enabled) return;
    this.importer.execute({ companyId, actor: 'onboarding', channel: 'web' }).catch((error: unknown) => {
      this.logger.warn(
        `history import of ${companyId} stopped: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
}
