import { Controller, Get, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import {
  DAILY_CHECKS,
  DailyCheckRuns,
  ProviderChecks,
  type MissingReceipt,
  type OverdueInvoice,
} from '@app/application';
import { ConsolePage } from '../auth/access.decorator';
import { html, type Html } from '../onboarding/html';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { formatDate, formatDecimal, formatInstant, type ConsoleLocale } from './console-format';
import { consolePage, sendConsole, type ConsoleViewer } from './console-page';
import { consoleTable, type ConsoleColumn } from './console-table';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';

/** How many items a check shows on the page (the count says how many were found). */
const SHOWN = 200;

function voucherColumns(l: ConsoleLocale): ConsoleColumn<MissingReceipt>[] {
  return [
    { heading: 'Voucher', cell: (v) => v.number },
    { heading: 'Date', cell: (v) => formatDate(l, v.date) },
    { heading: 'Description', cell: (v) => v.description },
    { heading: 'Amount', cell: (v) => (v.amount === null ? '—' : formatDecimal(l, v.amount, v.currency)) },
  ];
}

function invoiceColumns(l: ConsoleLocale): ConsoleColumn<OverdueInvoice>[] {
  return [
    { heading: 'Invoice', cell: (i) => i.number },
    { heading: 'Customer', cell: (i) => i.customerName },
    { heading: 'Due', cell: (i) => formatDate(l, i.dueDate) },
    { heading: 'Days overdue', cell: (i) => i.daysOverdue },
    { heading: 'Outstanding', cell: (i) => formatDecimal(l, i.outstanding, i.currency) },
  ];
}

/**
 * The checks (managers and up): the latest daily check of the company (a line per check of
 * DAILY_CHECKS), and the two checks of GET /v1/check/* run on demand — read live from the provider through ProviderChecks, as GET /v1/check/* does. Running a
 * check only reads, so it is a plain GET link.
 */
@Controller('console/checks')
@UseFilters(ConsoleExceptionFilter)
export class ChecksConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly runs: DailyCheckRuns,
    private readonly checks: ProviderChecks,
  ) {}

  @Get()
  @ConsolePage('monitor', 'manager')
  async page(@Req() request: ConsoleRequest, @Query('run') run: unknown, @Res() response: Response): Promise<void> {
    const viewer = await this.viewers.of(request);
    const company = viewer.identity.company;
    const [latest] = await this.runs.history({ companyId: company, limit: 1 });
    const l = viewer.locale;
    const daily = latest
      ? html`<dl class="summary">
          <dt>Day</dt>
          <dd>${formatDate(l, latest.day)}</dd>
          <dt>State</dt>
          <dd class="${latest.status === 'failed' ? 'bad' : ''}">${latest.status}</dd>
          <dt>Finished</dt>
          <dd>${latest.finishedAt ? formatInstant(l, latest.finishedAt) : '—'}</dd>
          ${DAILY_CHECKS.map(
            (check) =>
              html`<dt>${check.title}</dt>
                <dd>${latest.counts?.[check.id] ?? '—'}</dd>`,
          )}
          ${
            latest.error
              ? html`<dt>Error</dt>
                  <dd class="bad">${latest.error}</dd>`
              : ''
          }
        </dl>`
      : html`<p class="empty">The daily check has not run for this company yet.</p>`;
    let result: Html = html``;
    if (run === 'missing-receipts') result = await this.missingReceipts(viewer);
    if (run === 'overdue-invoices') result = await this.overdueInvoices(viewer);
    const body = html`<section aria-labelledby="daily-heading">
        <h2 id="daily-heading">Latest daily check</h2>
        ${daily}
      </section>
      <section aria-labelledby="now-heading">
        <h2 id="now-heading">Run a check now</h2>
        <p class="hint">Reads the ledger live from the accounting system; nothing is changed.</p>
        <p>
          <a href="/console/checks?run=missing-receipts">Postings without a receipt (last 30 days)</a> ·
          <a href="/console/checks?run=overdue-invoices">Overdue customer invoices</a>
        </p>
        ${result}
      </section>`;
    sendConsole(response, 200, consolePage(viewer, 'checks', 'Checks', body));
  }

  private async missingReceipts(viewer: ConsoleViewer): Promise<Html> {
    const l = viewer.locale;
    const report = await this.checks.missingReceipts(viewer.identity.company, { limit: SHOWN });
    return html`<h3>Postings without a receipt, ${formatDate(l, report.from)} – ${formatDate(l, report.to)}</h3>
      <p role="status">${report.count} found${report.truncated ? html`, the first ${SHOWN} shown` : ''}.</p>
      ${report.items.length ? consoleTable(voucherColumns(l), report.items) : ''}`;
  }

  private async overdueInvoices(viewer: ConsoleViewer): Promise<Html> {
    const l = viewer.locale;
    const report = await this.checks.overdueInvoices(viewer.identity.company, { limit: SHOWN });
    const totals = report.totalOutstanding.map((t) => formatDecimal(l, t.amount, t.currency)).join(', ');
    return html`<h3>Overdue customer invoices on ${formatDate(l, report.asOf)}</h3>
      <p role="status">
        ${report.count}
        found${report.truncated ? html`, the first ${SHOWN} shown` : ''}${totals ? html`; outstanding ${totals}` : ''}.
      </p>
      ${report.items.length ? consoleTable(invoiceColumns(l), report.items) : ''}`;
  }
}
