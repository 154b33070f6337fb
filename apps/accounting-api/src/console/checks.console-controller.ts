import { Controller, Get, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { LatestDailyCheck, ProviderChecks } from '@app/application';
import { ConsolePage } from '../auth/access.decorator';
import { renderChecksPage, type ChecksPageView } from './checks.view';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { sendConsole } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';

/** How many items a check shows on the page (the count says how many were found). */
const SHOWN = 200;

/**
 * The checks (managers and up): the latest daily check of the company (a line per check of
 * DAILY_CHECKS), and the two checks of GET /v1/check/* run on demand — read live from the provider
 * through ProviderChecks, as GET /v1/check/* does. Running a check only reads, so it is a plain GET
 * link. The page is rendered by renderChecksPage.
 */
@Controller('console/checks')
@UseFilters(ConsoleExceptionFilter)
export class ChecksConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly latestRun: LatestDailyCheck,
    private readonly checks: ProviderChecks,
  ) {}

  @Get()
  @ConsolePage('monitor', 'manager')
  async page(@Req() request: ConsoleRequest, @Query('run') run: unknown, @Res() response: Response): Promise<void> {
    const viewer = await this.viewers.of(request);
    const company = viewer.identity.company;
    const latest = await this.latestRun.execute(company);
    let result: ChecksPageView['result'] = null;
    if (run === 'missing-receipts') {
      result = { check: run, report: await this.checks.missingReceipts(company, { limit: SHOWN }) };
    }
    if (run === 'overdue-invoices') {
      result = { check: run, report: await this.checks.overdueInvoices(company, { limit: SHOWN }) };
    }
    sendConsole(response, 200, renderChecksPage({ viewer, latest, result, shown: SHOWN }));
  }
}
