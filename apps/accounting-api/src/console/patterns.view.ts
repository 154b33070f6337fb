import type { SuggestionsPage } from '@app/application';
import { VAT_TREATMENTS, type CompanyContext, type HistoryImport, type Page, type Pattern } from '@app/domain';
import { accountLabel } from './console-chart';
import { formatAmount, formatDate, formatRate, timeOf } from './console-format';
import { labelOf, providerLabel } from './console-labels';
import { consolePage, csrfField, type ConsoleViewer } from './console-page';
import { consoleText } from './console-text';
import { html, type Html } from './html';

/** What the patterns page shows. */
export interface PatternsPageView {
  readonly viewer: ConsoleViewer;
  /** The merchant searched for ('' for every pattern). */
  readonly merchant: string;
  readonly patterns: Page<Pattern>;
  readonly suggestions: SuggestionsPage;
  readonly context: CompanyContext | null;
  /** The change just made (`saved`, `retired`, `confirmed`, `refreshed`), and how many it touched. */
  readonly done: string;
  readonly count: number | null;
}

/** The history's amounts are NOK (HistoricalBooking). */
const HISTORY_CURRENCY = 'NOK';

/** The merchant patterns and the history's suggestions (PatternsConsoleController). */
export function renderPatternsPage({
  viewer,
  merchant,
  patterns,
  suggestions,
  context,
  done,
  count,
}: PatternsPageView): Html {
  const notice = noticeOf(done, count);
  const next = patterns.nextCursor
    ? html`<p>
        <a href="/console/patterns?${new URLSearchParams({ merchant, cursor: patterns.nextCursor }).toString()}"
          >More patterns →</a
        >
      </p>`
    : '';
  const body = html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    ${suggestionSection(viewer, suggestions, context, merchant)}
    <section aria-labelledby="patterns-heading">
      <h2 id="patterns-heading">Patterns</h2>
      <form method="get" action="/console/patterns" class="approve" role="search">
        <label for="merchant">Merchant</label>
        <input id="merchant" name="merchant" value="${merchant}" autocomplete="off" />
        <button type="submit">Search</button>
      </form>
      ${
        patterns.items.length
          ? html`<ol class="queue">
              ${patterns.items.map((p) => patternItem(viewer, p))}
            </ol>`
          : html`<p class="empty">No pattern${merchant ? html` for “${merchant}”` : ''}.</p>`
      }
      ${next}
    </section>`;
  return consolePage(viewer, 'patterns', 'Patterns', body);
}

function noticeOf(done: string, n: number | null): string | null {
  switch (done) {
    case 'saved':
      return 'Pattern saved.';
    case 'retired':
      return 'Pattern retired.';
    case 'confirmed':
      return n === 1
        ? 'Suggestion confirmed: it is a confirmed pattern now.'
        : n === null
          ? 'Suggestions confirmed.'
          : `${n} suggestions confirmed: they are confirmed patterns now.`;
    case 'refreshed':
      return n === null
        ? 'The history was read again.'
        : `The history was read again: ${n} suggestion${n === 1 ? '' : 's'} made or refreshed.`;
    default:
      return null;
  }
}

function suggestionSection(
  viewer: ConsoleViewer,
  page: SuggestionsPage,
  context: CompanyContext | null,
  merchant: string,
): Html {
  const items = page.items.map((p) => suggestionItem(viewer, p, context));
  const more = page.nextCursor
    ? html`<p>
        <a href="/console/patterns?${new URLSearchParams({ merchant, suggestions: page.nextCursor }).toString()}"
          >More suggestions →</a
        >
      </p>`
    : '';
  const confirmAll =
    page.items.length > 1
      ? html`<form method="post" action="/console/patterns/suggestions/confirm" class="approve">
          ${csrfField(viewer)} ${page.items.map((p) => html`<input type="hidden" name="ids" value="${p.id}" />`)}
          <button type="submit">Confirm all ${page.items.length} shown</button>
        </form>`
      : '';
  return html`<section aria-labelledby="suggestions-heading">
    <h2 id="suggestions-heading">Suggestions from the company’s history</h2>
    ${importState(viewer, page.import)}
    <p class="hint">
      Each suggestion is how the company’s books at the provider show a merchant booked over the last 12 months. Until
      someone confirms it, it only recommends a review; once confirmed, it can auto-approve the proposals of people
      other than the one who confirmed it. Confirming keeps the account and VAT shown: to book the merchant elsewhere,
      correct its pattern below and save it confirmed.
    </p>
    ${
      items.length
        ? html`<ol class="queue">
              ${items}
            </ol>
            ${more} ${confirmAll}`
        : html`<p class="empty">No suggestion waits for confirmation.</p>`
    }
    <form method="post" action="/console/patterns/suggestions/refresh" class="approve">
      ${csrfField(viewer)}
      <button type="submit">Read the history again</button>
    </form>
  </section>`;
}

function importState(viewer: ConsoleViewer, state: HistoryImport | null): Html {
  const l = viewer.locale;
  if (!state) {
    return html`<p class="meta" data-import="none">
      The company’s history has not been read yet. It is read when a provider is connected, or with the button below.
    </p>`;
  }
  const period = html`${formatDate(l, state.periodFrom)} – ${formatDate(l, state.periodTo)}`;
  switch (state.status) {
    case 'done':
      return html`<p class="meta" data-import="done">
        History read from ${providerLabel(state.provider)}: ${state.bookingsRead} bookings of ${period}, finished
        ${timeOf(l, state.finishedAt ?? state.updatedAt)}.
      </p>`;
    case 'running':
      return html`<p class="meta" data-import="running">
        Reading the history from ${providerLabel(state.provider)} (${period}): ${state.bookingsRead} bookings so far,
        started by ${state.startedBy}.
      </p>`;
    case 'failed':
      return html`<p class="bad" data-import="failed" role="alert">
        Reading the history from ${providerLabel(state.provider)} stopped after ${state.bookingsRead} bookings:
        ${consoleText(viewer, state.error ?? '')}. Reading it again goes on from there.
      </p>`;
  }
}

function suggestionItem(viewer: ConsoleViewer, p: Pattern, context: CompanyContext | null): Html {
  const l = viewer.locale;
  const stats = p.amountStats;
  const amounts =
    stats.min !== null && stats.max !== null
      ? stats.min === stats.max
        ? html` · always ${formatAmount(l, stats.min, HISTORY_CURRENCY)}`
        : html` · ${formatAmount(l, stats.min, HISTORY_CURRENCY)} to ${formatAmount(l, stats.max, HISTORY_CURRENCY)}`
      : '';
  const evidence = p.history
    ? html`${p.history.bookings} of the merchant’s ${p.history.merchantBookings} bookings,
      ${formatDate(l, p.history.firstDate)} – ${formatDate(l, p.history.lastDate)}`
    : html`${stats.count} bookings`;
  const correct = `/console/patterns?${new URLSearchParams({ merchant: p.merchantName }).toString()}#pattern-${p.id}`;
  return html`<li class="item" data-suggestion="${p.id}">
    <article aria-labelledby="suggestion-${p.id}">
      <h3 id="suggestion-${p.id}">
        ${p.merchantName}<span>${accountLabel(p.accountCode, context)} · VAT ${formatRate(l, p.vatRate)}</span>
      </h3>
      <p class="meta">${evidence}${amounts}</p>
      <form method="post" action="/console/patterns/suggestions/confirm" class="approve">
        ${csrfField(viewer)}
        <input type="hidden" name="ids" value="${p.id}" />
        <button type="submit" aria-describedby="suggestion-${p.id}">Confirm</button>
        <a href="${correct}" aria-describedby="suggestion-${p.id}">Correct it instead</a>
      </form>
    </article>
  </li>`;
}

/** The learnt VAT treatment in words; a pattern that has not learnt one is read as domestic. */
function treatmentWords(p: Pattern): string {
  return p.vatTreatment === null
    ? `treatment not known yet (read as ${labelOf('vatTreatment', 'domestic').toLowerCase()})`
    : labelOf('vatTreatment', p.vatTreatment);
}

function patternItem(viewer: ConsoleViewer, p: Pattern) {
  const l = viewer.locale;
  const origin = p.writtenBy
    ? html`written by ${p.writtenBy}`
    : p.history
      ? html`suggested by the history`
      : html`learnt from approvals`;
  return html`<li class="item" data-pattern="${p.id}">
    <article aria-labelledby="pattern-${p.id}">
      <h3 id="pattern-${p.id}">
        ${p.merchantName}<span
          >${p.accountCode} · ${formatRate(l, p.vatRate)} ·
          <span data-vat-treatment="${p.vatTreatment ?? ''}">${treatmentWords(p)}</span>${
            p.supplierOrganizationNumber
              ? html` · supplier
                  <span data-supplier="${p.supplierOrganizationNumber}">org. no. ${p.supplierOrganizationNumber}</span>`
              : ''
          }</span
        >
      </h3>
      <p class="meta">
        ${p.approvals} approval${p.approvals === 1 ? '' : 's'} ·
        ${p.verified ? 'confirmed' : 'not confirmed'}${
          p.confirmedBy.length ? html` by ${p.confirmedBy.join(', ')}` : ''
        }
        · ${origin} · changed ${timeOf(l, p.updatedAt)}
      </p>
      <form method="post" action="/console/patterns/${p.id}/edit" class="approve">
        ${csrfField(viewer)}
        <label for="acc-${p.id}">Account</label>
        <input id="acc-${p.id}" name="accountCode" value="${p.accountCode}" inputmode="numeric" required size="6" />
        <label for="vat-${p.id}">VAT %</label>
        <input id="vat-${p.id}" name="vatRate" value="${p.vatRate}" inputmode="decimal" required size="5" />
        <label for="treat-${p.id}">VAT treatment</label>
        <select id="treat-${p.id}" name="vatTreatment">
          <option value="" ${p.vatTreatment === null ? html`selected` : ''}>Not known yet</option>
          ${VAT_TREATMENTS.map(
            (t) =>
              html`<option value="${t}" ${p.vatTreatment === t ? html`selected` : ''}>
                ${labelOf('vatTreatment', t)}
              </option>`,
          )}
        </select>
        <label for="org-${p.id}">Supplier org. no.</label>
        <input
          id="org-${p.id}"
          name="supplierOrganizationNumber"
          value="${p.supplierOrganizationNumber ?? ''}"
          inputmode="numeric"
          size="11"
          aria-describedby="org-hint-${p.id}"
        />
        <span class="hint" id="org-hint-${p.id}">empty: any supplier</span>
        <label for="ver-${p.id}"
          ><input id="ver-${p.id}" type="checkbox" name="verified" ${p.verified ? html`checked` : ''} />
          Confirmed</label
        >
        <button type="submit">Save</button>
      </form>
      <form method="post" action="/console/patterns/${p.id}/retire" class="reject">
        ${csrfField(viewer)}
        <button type="submit">Retire</button>
      </form>
    </article>
  </li>`;
}
