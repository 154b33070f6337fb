import {
  DAILY_CHECKS,
  type DailyCheckRun,
  type MissingReceipt,
  type MissingReceiptsReport,
  type OverdueInvoice,
  type OverdueInvoicesReport,
} from '@app/application';
import { formatDate, formatDecimal, timeOf, type ConsoleLocale } from './console-format';
import { LABELS } from './console-labels';
import { consolePage, type ConsoleViewer } from './console-page';
import { consoleTable, type ConsoleColumn } from './console-table';
import { html, type Html } from './html';

/** What the checks page shows: the latest daily check, and the on-demand check that was run, if any. */
export interface ChecksPageView {
  readonly viewer: ConsoleViewer;
  readonly latest: DailyCheckRun | null;
  readonly result:
    | { readonly check: 'missing-receipts'; readonly report: MissingReceiptsReport }
    | { readonly check: 'overdue-invoices'; readonly report: OverdueInvoicesReport }
    | null;
  /** How many items a check shows at most (the count says how many were found). */
  readonly shown: number;
}

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

/** The checks page (ChecksConsoleController). */
export function renderChecksPage(view: ChecksPageView): Html {
  const { viewer, latest } = view;
  const l = viewer.locale;
  const daily = latest
    ? html`<dl class="summary">
        <dt>Day</dt>
        <dd>${formatDate(l, latest.day)}</dd>
        <dt>State</dt>
        <dd class="${latest.status === 'failed' ? 'bad' : ''}" data-run="${latest.status}">
          ${LABELS.checkRun[latest.status]}
        </dd>
        <dt>Finished</dt>
        <dd>${latest.finishedAt ? timeOf(l, latest.finishedAt) : '—'}</dd>
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
      ${checkResult(view)}
    </section>`;
  return consolePage(viewer, 'checks', 'Checks', body);
}

function checkResult({ viewer, result, shown }: ChecksPageView): Html {
  const l = viewer.locale;
  if (!result) return html``;
  if (result.check === 'missing-receipts') {
    const report = result.report;
    return html`<h3>Postings without a receipt, ${formatDate(l, report.from)} – ${formatDate(l, report.to)}</h3>
      <p role="status">${report.count} found${report.truncated ? html`, the first ${shown} shown` : ''}.</p>
      ${report.items.length ? consoleTable(voucherColumns(l), report.items) : ''}`;
  }
  const report = result.report;
  const totals = report.totalOutstanding.map((t) => formatDecimal(l, t.amount, t.currency)).join(', ');
  return html`<h3>Overdue customer invoices on ${formatDate(l, report.asOf)}</h3>
    <p role="status">
      ${report.count}
      found${report.truncated ? html`, the first ${shown} shown` : ''}${totals ? html`; outstanding ${totals}` : ''}.
    </p>
    ${report.items.length ? consoleTable(invoiceColumns(l), report.items) : ''}`;
}
