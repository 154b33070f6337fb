import type { ReimbursementList, ReimbursementItem } from '@app/application';
import { formatMoney } from '@app/domain';
import { formatDate, formatDecimal, formatInstant, type ConsoleLocale } from './console-format';
import { consolePage, csrfField, type ConsoleViewer } from './console-page';
import { consoleTable, type ConsoleColumn } from './console-table';
import { html, type Html } from './html';

/** What the reimbursements page shows: the open (or paid) outlays, and the notice of a mark just made. */
export interface ReimbursementsPageView {
  readonly viewer: ConsoleViewer;
  readonly list: ReimbursementList;
  readonly done: 'paid' | null;
  /** Today in Norway: the default day of a payout. */
  readonly today: string;
}

function columns(view: ReimbursementsPageView, l: ConsoleLocale): ConsoleColumn<ReimbursementItem>[] {
  const open = view.list.status === 'open';
  return [
    { heading: 'Employee', cell: (i) => i.proposal.submittedBy },
    { heading: 'Date', cell: (i) => formatDate(l, i.proposal.date) },
    {
      heading: 'Merchant',
      cell: (i) => html`<a href="/console/proposals/${i.proposal.id}">${i.proposal.merchant}</a>`,
    },
    {
      heading: 'Owed',
      cell: (i) => {
        const nok = formatDecimal(l, formatMoney(i.proposal.amountNok ?? i.proposal.amount), 'NOK');
        return i.proposal.currency === 'NOK'
          ? nok
          : `${nok} (${formatDecimal(l, formatMoney(i.proposal.amount), i.proposal.currency)})`;
      },
    },
    { heading: 'Booked', cell: (i) => `${formatInstant(l, i.bookedAt)} · ${i.proposal.booking?.bookingId ?? ''}` },
    open
      ? { heading: 'Paid back', cell: (i) => markForm(view, i) }
      : {
          heading: 'Paid back',
          cell: (i) =>
            i.proposal.reimbursement
              ? `${formatDate(l, i.proposal.reimbursement.paidOn)}${
                  i.proposal.reimbursement.reference ? ` · ${i.proposal.reimbursement.reference}` : ''
                } (${i.proposal.reimbursement.markedBy})`
              : '—',
        },
  ];
}

function markForm(view: ReimbursementsPageView, item: ReimbursementItem): Html {
  const id = item.proposal.id;
  return html`<form method="post" action="/console/reimbursements/${id}/paid" class="inline">
    ${csrfField(view.viewer)}
    <label>Paid on <input type="date" name="paidOn" value="${view.today}" required /></label>
    <label>Reference <input type="text" name="reference" maxlength="200" /></label>
    <button type="submit">Mark paid</button>
  </form>`;
}

/**
 * The reimbursements page (ReimbursementsConsoleController): what the company owes its employees for
 * their outlays, the totals per employee to pay out, and a "Mark paid" form per outlay; or, with
 * `?status=paid`, the outlays already paid back.
 */
export function renderReimbursementsPage(view: ReimbursementsPageView): Html {
  const { viewer, list } = view;
  const l = viewer.locale;
  const open = list.status === 'open';
  const totals = list.totalsByEmployee.length
    ? html`<dl class="summary">
        ${list.totalsByEmployee.map(
          (t) =>
            html`<dt>${t.employee}</dt>
              <dd>${formatDecimal(l, formatMoney(t.amountNok), 'NOK')} (${t.count})</dd>`,
        )}
      </dl>`
    : html``;
  const table = list.items.length
    ? consoleTable(columns(view, l), list.items, { rowAttributes: (i) => html`data-proposal="${i.proposal.id}"` })
    : html`<p class="empty">${open ? 'Nobody is owed anything.' : 'No outlay has been marked paid back yet.'}</p>`;
  const body = html`${
      view.done === 'paid'
        ? html`<p class="notice" role="status">Marked paid back. It is no longer listed as owed.</p>`
        : html``
    }
    <p class="hint">
      Employees' own money spent on the company's purchases, once booked. Marking one paid back records it; the payout
      itself reaches the books through the bank reconciliation.
    </p>
    <p>
      ${
        open
          ? html`<a href="/console/reimbursements?status=paid">Show those paid back</a>`
          : html`<a href="/console/reimbursements">Show those still owed</a>`
      }
    </p>
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading">${open ? 'Owed per employee' : 'Paid back per employee'}</h2>
      ${totals}
    </section>
    <section aria-labelledby="list-heading">
      <h2 id="list-heading">${open ? 'Outlays to pay back' : 'Outlays paid back'}</h2>
      ${table}
      ${
        list.nextCursor
          ? html`<p><a href="/console/reimbursements?status=${list.status}&cursor=${list.nextCursor}">More</a></p>`
          : html``
      }
    </section>`;
  return consolePage(viewer, 'reimbursements', 'Reimbursements', body);
}
