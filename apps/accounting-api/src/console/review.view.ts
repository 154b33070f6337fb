import type { ProposalChainView, ProposalPostings, ReviewQueueView } from '@app/application';
import {
  EVENT_TYPE_TABLE,
  isBookedOutlay,
  routeFor,
  type CompanyContext,
  type Posting,
  type DomainEvent,
  type EventLinkCheck,
  type EventsVerification,
  type Proposal,
  type Route,
} from '@app/domain';
import { accountLabel } from './console-chart';
import { formatAmount, formatDate, formatDecimal, formatRate, formatShare, timeOf } from './console-format';
import { LABELS, labelOf, providerLabel } from './console-labels';
import { consoleTable, type ConsoleColumn } from './console-table';
import { consoleText } from './console-text';
import { consolePage, csrfField, DECIDE_RULE, mayOpen, type ConsoleViewer } from './console-page';
import { refusalText } from './console-refusal';
import { html, type Html } from './html';

/** The review queue page: the queue, and the notice of the decision just made (`done`). */
export interface ReviewPageView {
  readonly viewer: ConsoleViewer;
  readonly queue: ReviewQueueView;
  readonly done: 'approved' | 'rejected' | 'stopped' | null;
}

/** The proposal page: the proposal, its chain's events and their check in the hash chain. */
export interface ProposalPageView {
  readonly viewer: ConsoleViewer;
  readonly chain: ProposalChainView;
}

/** How the review page colours a confidence: by its band (CONFIDENCE_BANDS). */
const BAND_CLASS: Record<Route, string> = { auto_approve: 'ok', review_recommended: '', review_required: 'bad' };

/** Reasons that call for a closer look (a possible duplicate, an unusual amount, a look-alike name). */
const WARNING = /duplicate|unusual|similar|look-?alike|outside|limit/i;

/** The engine's reasons; a proposal a reason names (a possible duplicate) links to its page. */
function reasonList(viewer: ConsoleViewer, reasons: readonly string[]): Html {
  return html`<ul class="reasons">
    ${reasons.map((r) => html`<li class="${WARNING.test(r) ? 'warn' : ''}">${consoleText(viewer, r)}</li>`)}
  </ul>`;
}

/** The review queue (ReviewConsoleController): approving and rejecting forms for those who may decide. */
export function renderReviewPage({ viewer, queue: view, done }: ReviewPageView): Html {
  const mayDecide = mayOpen(viewer.identity, DECIDE_RULE);
  const notice =
    done === 'approved'
      ? 'Approved. It is booked in the accounting system within a minute.'
      : done === 'rejected'
        ? 'Rejected. The submitter is told why.'
        : done === 'stopped'
          ? 'Stopped. The auto-approval will not be booked.'
          : null;
  const pending = view.pending.map((p, i) =>
    queueItem(viewer, p, i, view.context, mayDecide, view.postings?.get(p.id)),
  );
  const delayed = view.delayed.map((p) => delayedItem(viewer, p, mayDecide));
  const body = html`${notice ? html`<p class="notice" role="status">${notice}</p>` : html``}
    <p class="hint" id="shortcuts">
      Keyboard: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>a</kbd> approve, <kbd>r</kbd> reject (type a reason),
      <kbd>o</kbd> open.
    </p>
    <section aria-labelledby="pending-heading">
      <h2 id="pending-heading">Waiting for review (${view.pending.length}${view.truncated ? '+' : ''})</h2>
      ${
        pending.length
          ? html`<ol class="queue">
              ${pending}
            </ol>`
          : html`<p class="empty">Nothing waits for review.</p>`
      }
    </section>
    <section aria-labelledby="delayed-heading">
      <h2 id="delayed-heading">Auto-approved, not yet booked (${view.delayed.length})</h2>
      ${
        delayed.length
          ? html`<ol class="queue">
              ${delayed}
            </ol>`
          : html`<p class="empty">No auto-approval waits for its execution delay.</p>`
      }
    </section>`;
  return consolePage(viewer, 'review', 'Review queue', body);
}

/** A proposal with its event chain (ReviewConsoleController). */
export function renderProposalPage({
  viewer,
  chain: { proposal, events: chain, verification, postings },
}: ProposalPageView): Html {
  const l = viewer.locale;
  const links = new Map(verification.events.map((check) => [check.eventId, check]));
  const titles = new Map(chain.map((event) => [event.id, eventLabel(event)]));
  const verified = chainState(verification, titles);
  const events = chain.map((event) => {
    const calls = event.api_calls.map((c) => html`<li><code>${c.method} ${c.path}</code> → ${c.status}</li>`);
    const link = links.get(event.id);
    const earlier = event.proposalId !== null && event.proposalId !== proposal.id;
    return html`<li
      class="${link?.state === 'broken' ? 'event broken' : 'event'}"
      data-link="${link?.state ?? 'unchecked'}"
    >
      <h3>${eventLabel(event)}${earlier ? html` (earlier submission)` : ''}</h3>
      <p>
        ${timeOf(l, event.occurredAt)} by <strong>${event.actor}</strong> via
        ${LABELS.channel[event.channel]}${event.provider ? html` · provider ${providerLabel(event.provider)}` : ''}
      </p>
      ${eventDetail(viewer, event)} ${linkDetail(link)}
      ${
        calls.length
          ? html`<details>
              <summary>Provider calls (${calls.length})</summary>
              <ul>
                ${calls}
              </ul>
            </details>`
          : ''
      }
    </li>`;
  });
  const body = html`<p><a href="/console/review">← Review queue</a></p>
    ${summary(viewer, proposal)} ${bookkeepingFacts(proposal, l)} ${postings ? postingsSection(postings, l, 'h2') : ''}
    ${receiptPreview(proposal)}
    <h2>Event chain</h2>
    ${verified}
    <ol class="chain">
      ${events}
    </ol>`;
  return consolePage(viewer, 'review', `${proposal.merchant}`, body);
}

function receiptPreview(proposal: Proposal): Html {
  if (!proposal.receipt) return html`<p class="empty">No receipt was attached.</p>`;
  const src = `/console/proposals/${proposal.id}/receipt`;
  return proposal.receipt.contentType === 'application/pdf'
    ? html`<p><a href="${src}" target="_blank" rel="noopener">Open the receipt (PDF)</a></p>
        <iframe class="receipt" src="${src}" title="Receipt of ${proposal.merchant} (PDF)"></iframe>`
    : html`<a href="${src}" target="_blank" rel="noopener"
        ><img class="receipt" src="${src}" alt="Receipt of ${proposal.merchant}" loading="lazy"
      /></a>`;
}

function queueItem(
  viewer: ConsoleViewer,
  p: Proposal,
  index: number,
  context: CompanyContext | null,
  mayDecide: boolean,
  postings?: ProposalPostings,
): Html {
  const l = viewer.locale;
  const decide = mayDecide
    ? html`<form method="post" action="/console/proposals/${p.id}/approve" class="approve">
          ${csrfField(viewer)}
          <label for="account-${p.id}">Account</label>
          ${accountChoice(`account-${p.id}`, p.accountCode, context)}
          <label for="vat-${p.id}">VAT</label>
          ${vatChoice(`vat-${p.id}`, p.vatRate, context, l)}
          <button type="submit" data-action="approve">Approve</button>
        </form>
        <form method="post" action="/console/proposals/${p.id}/reject" class="reject">
          ${csrfField(viewer)}
          <label for="reason-${p.id}">Reason for rejecting</label>
          <input id="reason-${p.id}" name="reason" required maxlength="1000" autocomplete="off" data-role="reason" />
          <button type="submit" data-action="reject">Reject</button>
        </form>`
    : html`<p class="hint">${refusalText(DECIDE_RULE, viewer.identity)}</p>`;
  return html`<li class="item" id="item-${index}" tabindex="-1" data-proposal="${p.id}">
    <article aria-labelledby="title-${p.id}">
      <h3 id="title-${p.id}">
        <a href="/console/proposals/${p.id}" data-action="open">${p.merchant}</a>
        <span class="amount">${formatAmount(l, p.amount, p.currency)}</span>
      </h3>
      <p class="meta">
        ${formatDate(l, p.date)} · submitted by ${p.submittedBy} via ${LABELS.channel[p.channel]} ·
        ${timeOf(l, p.submittedAt)}
      </p>
      <p>
        Suggested: account <strong>${accountLabel(p.accountCode, context)}</strong>, VAT
        <strong>${formatRate(l, p.vatRate)}</strong>${p.description ? html` · ${p.description}` : ''}
      </p>
      <p>
        Confidence
        <strong class="${BAND_CLASS[routeFor(p.confidence)]}">${formatShare(l, p.confidence)}</strong>
        (${LABELS.route[routeFor(p.confidence)]})
      </p>
      ${reasonList(viewer, p.reasons)} ${bookkeepingFacts(p, l)} ${postings ? postingsSection(postings, l, 'h4') : ''}
      ${
        p.receipt
          ? html`<a class="thumb" href="/console/proposals/${p.id}/receipt" target="_blank" rel="noopener"
              >${
                p.receipt.contentType === 'application/pdf'
                  ? html`Receipt (PDF)`
                  : html`<img src="/console/proposals/${p.id}/receipt" alt="Receipt of ${p.merchant}" loading="lazy" />`
              }</a
            >`
          : html`<p class="bad">No receipt attached.</p>`
      }
      ${decide}
    </article>
  </li>`;
}

function delayedItem(viewer: ConsoleViewer, p: Proposal, mayDecide: boolean): Html {
  const l = viewer.locale;
  return html`<li class="item" data-proposal="${p.id}">
    <article>
      <h3>
        <a href="/console/proposals/${p.id}">${p.merchant}</a>
        <span class="amount">${formatAmount(l, p.amount, p.currency)}</span>
      </h3>
      <p class="meta">
        ${formatDate(l, p.date)} · account ${p.accountCode}, VAT ${formatRate(l, p.vatRate)} · booked after
        ${timeOf(l, p.executeAfter!)}
      </p>
      ${
        mayDecide
          ? html`<form method="post" action="/console/proposals/${p.id}/reject" class="reject">
              ${csrfField(viewer)}
              <input type="hidden" name="stop" value="1" />
              <label for="stop-${p.id}">Why stop it</label>
              <input id="stop-${p.id}" name="reason" required maxlength="1000" autocomplete="off" />
              <button type="submit">Stop</button>
            </form>`
          : ''
      }
    </article>
  </li>`;
}

function accountChoice(id: string, current: string, context: CompanyContext | null): Html {
  if (!context || context.accounts.length === 0) {
    return html`<input id="${id}" name="accountCode" value="${current}" inputmode="numeric" required />`;
  }
  // An inactive account takes no postings: it is not offered (the current one is kept, marked).
  const active = context.accounts.filter((a) => !a.rules?.inactive);
  const known = active.some((a) => a.code === current);
  const options = active.map(
    (a) => html`<option value="${a.code}" ${a.code === current ? html`selected` : ''}>${a.code} ${a.name}</option>`,
  );
  return html`<select id="${id}" name="accountCode">
    ${known ? '' : html`<option value="${current}" selected>${current} (not in the chart, or inactive)</option>`}
    ${options}
  </select>`;
}

function vatChoice(id: string, current: string, context: CompanyContext | null, locale: ConsoleViewer['locale']): Html {
  const rates = [...new Set((context?.vatTypes ?? []).map((v) => v.ratePercent))];
  if (rates.length === 0)
    return html`<input id="${id}" name="vatRate" value="${current}" inputmode="decimal" required />`;
  if (!rates.includes(current)) rates.unshift(current);
  const options = rates.map(
    (r) => html`<option value="${r}" ${r === current ? html`selected` : ''}>${formatRate(locale, r)}</option>`,
  );
  return html`<select id="${id}" name="vatRate">
    ${options}
  </select>`;
}

/** What was bought and how it was paid: kind, payment, VAT treatment, lines, supplier and due date. */
/** A booked employee outlay: whether the employee was paid back (and when, by whom), else nothing. */
function reimbursementFact(p: Proposal, l: ConsoleViewer['locale']): Html | '' {
  if (!isBookedOutlay(p)) return '';
  const paid = p.reimbursement;
  return html`<dt>Reimbursement</dt>
    ${
      paid
        ? html`<dd data-reimbursement="paid">
            Paid back on ${formatDate(l, paid.paidOn)}${paid.reference ? html` (${paid.reference})` : ''}, marked by
            ${paid.markedBy} ${timeOf(l, paid.markedAt)}
          </dd>`
        : html`<dd data-reimbursement="open">Not yet paid back to ${p.submittedBy}</dd>`
    }`;
}

function bookkeepingFacts(p: Proposal, l: ConsoleViewer['locale']): Html {
  const lines = p.lines.map(
    (line) =>
      html`<li>
        ${line.accountCode}, ${formatRate(l, line.vatRate)}:
        ${formatAmount(l, line.amount, p.currency)}${line.description ? html` · ${line.description}` : ''}
      </li>`,
  );
  return html`<dl class="summary bookkeeping">
    <dt>Kind</dt>
    <dd data-kind="${p.kind}">${LABELS.kind[p.kind]}</dd>
    ${
      p.paidWith
        ? html`<dt>Paid with</dt>
            <dd data-paid-with="${p.paidWith}">${LABELS.paidWith[p.paidWith]}</dd>`
        : ''
    }
    ${reimbursementFact(p, l)}
    <dt>VAT treatment</dt>
    <dd data-vat-treatment="${p.vatTreatment}">${LABELS.vatTreatment[p.vatTreatment]}</dd>
    <dt>Lines</dt>
    <dd>
      <ul class="lines">
        ${lines}
      </ul>
    </dd>
    ${
      p.supplier
        ? html`<dt>Supplier</dt>
            <dd>
              ${p.supplier.name} (org. no.
              ${p.supplier.organizationNumber})${
                p.supplier.bankAccount ? html` · account ${p.supplier.bankAccount}` : ''
              }${p.supplier.kid ? html` · KID ${p.supplier.kid}` : ''}
            </dd>`
        : ''
    }
    ${
      p.invoiceNumber
        ? html`<dt>Invoice</dt>
            <dd>${p.invoiceNumber}</dd>`
        : ''
    }
    ${
      p.dueDate
        ? html`<dt>Due</dt>
            <dd>${formatDate(l, p.dueDate)}</dd>`
        : ''
    }
    ${
      p.departmentId
        ? html`<dt>Department</dt>
            <dd>${p.departmentId}</dd>`
        : ''
    }
  </dl>`;
}

/**
 * The postings: planned before execution; after it, those read back from the provider, with any
 * difference from the planned ones flagged, or the read-back's failure.
 */
function postingsSection(postings: ProposalPostings, l: ConsoleViewer['locale'], heading: 'h2' | 'h4'): Html {
  const { planned, problem, readBack } = postings;
  const title = (text: string) => (heading === 'h2' ? html`<h2>${text}</h2>` : html`<h4>${text}</h4>`);
  if (readBack) {
    const flag =
      readBack.error !== null
        ? html`<p class="warn" data-read-back="failed">The postings could not be read back: ${readBack.error}</p>`
        : readBack.differences.length > 0
          ? html`<div class="bad" data-read-back="differs">
              <p>The provider booked otherwise than planned:</p>
              <ul>
                ${readBack.differences.map((d) => html`<li>${d}</li>`)}
              </ul>
            </div>`
          : html`<p class="ok" data-read-back="agrees">The provider's ledger shows the planned postings.</p>`;
    return html`<section class="postings">
      ${title(readBack.booked ? 'Postings booked (read back from the provider)' : 'Postings planned')} ${flag}
      ${postingTable(readBack.booked ?? readBack.planned ?? planned ?? [], l)}
      ${
        readBack.booked && readBack.planned
          ? html`<details>
              <summary>Postings planned</summary>
              ${postingTable(readBack.planned, l)}
            </details>`
          : ''
      }
    </section>`;
  }
  return html`<section class="postings">
    ${title('Postings to be booked')}
    ${planned ? postingTable(planned, l) : html`<p class="bad" data-postings="none">${problem}</p>`}
  </section>`;
}

function postingTable(postings: readonly Posting[], l: ConsoleViewer['locale']): Html {
  const party = (posting: Posting) => {
    const who = posting.party
      ? `${labelOf('party', posting.party.kind)} ${posting.party.name}${posting.party.organizationNumber ? ` (${posting.party.organizationNumber})` : ''}`
      : '';
    const invoice = [
      posting.invoiceNumber ? `invoice ${posting.invoiceNumber}` : '',
      posting.dueDate ? `due ${formatDate(l, posting.dueDate)}` : '',
      posting.kid ? `KID ${posting.kid}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `${who}${invoice ? ` · ${invoice}` : ''}`;
  };
  const columns: ConsoleColumn<Posting>[] = [
    { heading: 'Account', cell: (posting) => posting.accountCode },
    { heading: 'Debit', cell: (posting) => (posting.amount >= 0 ? formatAmount(l, posting.amount, 'NOK') : '') },
    { heading: 'Credit', cell: (posting) => (posting.amount < 0 ? formatAmount(l, -posting.amount, 'NOK') : '') },
    {
      heading: 'VAT code',
      cell: (posting) => `${posting.vatCode ?? ''}${posting.generated ? ' (generated VAT)' : ''}`,
    },
    { heading: 'Party', cell: party },
  ];
  return consoleTable(columns, postings, { rowAttributes: (posting) => html`data-account="${posting.accountCode}"` });
}

function summary(viewer: ConsoleViewer, p: Proposal): Html {
  const l = viewer.locale;
  return html`<dl class="summary">
    <dt>Status</dt>
    <dd data-status="${p.status}">${LABELS.status[p.status]}</dd>
    <dt>Amount</dt>
    <dd>${formatAmount(l, p.amount, p.currency)}</dd>
    <dt>Date</dt>
    <dd>${formatDate(l, p.date)}</dd>
    <dt>Account, VAT</dt>
    <dd>${p.accountCode}, ${formatRate(l, p.vatRate)}</dd>
    <dt>Submitted by</dt>
    <dd>${p.submittedBy} via ${LABELS.channel[p.channel]}</dd>
    <dt>Confidence</dt>
    <dd>${formatShare(l, p.confidence)} ${reasonList(viewer, p.reasons)}</dd>
    ${
      p.booking
        ? html`<dt>Booked</dt>
            <dd>${providerLabel(p.booking.provider)} ${p.booking.bookingId}</dd>`
        : ''
    }
    ${
      p.rejectionReason
        ? html`<dt>Rejected because</dt>
            <dd>${p.rejectionReason}</dd>`
        : ''
    }
  </dl>`;
}

/** An event's name in the console (the domain's `EVENT_TYPE_TABLE`). */
function eventLabel(event: DomainEvent): string {
  return EVENT_TYPE_TABLE[event.type].label;
}

/** The line under an event's heading; a type without its own line shows its heading only. */
function eventDetail(viewer: ConsoleViewer, event: DomainEvent): Html {
  const l = viewer.locale;
  switch (event.type) {
    case 'Proposed':
      return html`<p>
        ${event.data.merchant}, ${formatDecimal(l, event.data.amount, event.data.currency)}, account
        ${event.data.accountCode}, VAT ${formatRate(l, event.data.vatRate)}; ${labelOf('route', event.data.route)}
      </p>`;
    case 'Approved':
      return html`<p>
        ${event.data.auto ? 'Auto-approved' : 'Approved'}: account ${event.data.accountCode}, VAT
        ${formatRate(l, event.data.vatRate)}${event.data.corrections ? html` (corrected)` : ''}
      </p>`;
    case 'Rejected':
      return html`<p>Reason: ${consoleText(viewer, event.data.reason)}</p>`;
    case 'Executed':
      return html`<p>Booked as ${event.data.bookingId}</p>`;
    case 'ExecutionFailed':
      return html`<p class="bad">${consoleText(viewer, event.data.message)}</p>`;
    case 'ReimbursementPaid':
      return html`<p>
        Paid back ${formatDecimal(l, event.data.amountNok, 'NOK')} on
        ${formatDate(l, event.data.paidOn)}${event.data.reference ? html` (${event.data.reference})` : ''}
      </p>`;
    case 'PatternSaved':
    case 'PatternRetired':
      return html`<p>Pattern ${event.data.pattern.merchantName} → ${event.data.pattern.accountCode}</p>`;
    default:
      return html``;
  }
}

/**
 * The state of the proposal's events in the company's hash chain (EventChainVerifier.verifyEvents):
 * verified, or broken with each event (or missing sequence number) where a link does not hold.
 */
function chainState(verification: EventsVerification, titles: ReadonlyMap<string, string>): Html {
  const scope = html`Each event is checked against its seal and the seals before and after it; the company's whole chain
    is checked by <code>events verify</code>.`;
  if (verification.ok && verification.verified === 0) {
    return html`<p data-chain="pending">
      Not verified yet: the ${verification.pending} event(s) of this proposal were recorded moments ago and are not
      sealed into the hash chain yet. <span class="hint">${scope}</span>
    </p>`;
  }
  if (verification.ok) {
    return html`<p class="ok" data-chain="verified">
      Hash chain verified for the ${verification.verified} sealed event(s) of this
      proposal${
        verification.pending ? html`; ${verification.pending} recorded moments ago are not sealed yet` : html``
      }${verification.keyed ? html`` : html` (links not keyed yet)`}.
      <span class="hint">${scope}</span>
    </p>`;
  }
  const where = verification.events
    .filter((check) => check.state === 'broken')
    .map(
      (check) =>
        html`<li>
          ${check.eventId ? (titles.get(check.eventId) ?? 'Event') : 'A removed event'} (sequence
          ${check.sequence}${check.chainIndex === null ? '' : html`, chain index ${check.chainIndex}`}): ${check.reason}
        </li>`,
    );
  return html`<div class="bad" data-chain="broken" role="alert">
    <p>
      Hash chain broken at ${verification.broken} place(s) of this proposal's events. Tell your operator (<code
        >events verify</code
      >).
    </p>
    <ul>
      ${where}
    </ul>
    <p class="hint">${scope}</p>
  </div>`;
}

function linkDetail(link: EventLinkCheck | undefined): Html {
  if (!link) return html``;
  switch (link.state) {
    case 'verified':
      return html`<p class="meta">Link verified, chain index ${link.chainIndex}.</p>`;
    case 'pending':
      return html`<p class="meta">Not sealed yet.</p>`;
    case 'broken':
      return html`<p class="bad">Link broken: ${link.reason}</p>`;
  }
}
