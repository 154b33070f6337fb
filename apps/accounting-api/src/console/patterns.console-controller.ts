import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import {
  ConfirmSuggestionsHandler,
  EditPatternHandler,
  ImportBookingHistoryHandler,
  ListPatternsHandler,
  ListSuggestionsHandler,
  RetirePatternHandler,
  type SuggestionsPage,
} from '@app/application';
import {
  CompanyContextStore,
  invalidField,
  MAX_PAGE_LIMIT,
  type CompanyContext,
  type HistoryImport,
  type Pattern,
} from '@app/domain';
import { ConsolePage } from '../auth/access.decorator';
import { html, type Html } from './html';
import { accountLabel } from './console-chart';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { formatAmount, formatDate, formatInstant, formatRate } from './console-format';
import { consolePage, csrfField, sendConsole, type ConsoleViewer } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';

type Form = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * Suggestions shown at once. A "confirm all shown" form carries one id each, well inside the
 * console form parser's parameter limit.
 */
const SUGGESTIONS_PER_PAGE = 20;

/** The history's amounts are NOK (HistoricalBooking). */
const HISTORY_CURRENCY = 'NOK';

/**
 * The merchant patterns (accountants): the suggestions the company's booking history makes, to
 * confirm or to read again from the provider, then every pattern, to search by merchant, edit
 * (account, VAT, whether it is confirmed) and retire. Everything goes through the handlers of
 * /v1/patterns and /v1/patterns/suggestions, so each change is a PatternSaved or PatternRetired
 * event with the person as actor on the channel `web`, under the same permission (`rules`,
 * accountant) as those routes.
 */
@Controller('console/patterns')
@UseFilters(ConsoleExceptionFilter)
export class PatternsConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly listPatterns: ListPatternsHandler,
    private readonly editPattern: EditPatternHandler,
    private readonly retirePattern: RetirePatternHandler,
    private readonly listSuggestions: ListSuggestionsHandler,
    private readonly confirmSuggestions: ConfirmSuggestionsHandler,
    private readonly importHistory: ImportBookingHistoryHandler,
    private readonly contexts: CompanyContextStore,
  ) {}

  @Get()
  @ConsolePage('rules', 'accountant')
  async list(@Req() request: ConsoleRequest, @Query() query: Record<string, unknown>, @Res() response: Response) {
    const viewer = await this.viewers.of(request);
    const merchant = text(query.merchant).slice(0, 200);
    const cursor = text(query.cursor) || null;
    const suggestionsCursor = text(query.suggestions) || null;
    const [page, suggestions, context] = await Promise.all([
      this.listPatterns.execute({
        caller: viewer.identity,
        merchant: merchant || undefined,
        limit: MAX_PAGE_LIMIT,
        cursor,
      }),
      this.listSuggestions.execute({
        caller: viewer.identity,
        limit: SUGGESTIONS_PER_PAGE,
        cursor: suggestionsCursor,
      }),
      this.contexts.get(viewer.identity.company),
    ]);
    const count = text(query.count);
    const notice = noticeOf(text(query.done), /^\d{1,6}$/.test(count) ? Number(count) : null);
    const next = page.nextCursor
      ? html`<p>
          <a href="/console/patterns?${new URLSearchParams({ merchant, cursor: page.nextCursor }).toString()}"
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
          page.items.length
            ? html`<ol class="queue">
                ${page.items.map((p) => patternItem(viewer, p))}
              </ol>`
            : html`<p class="empty">No pattern${merchant ? html` for “${merchant}”` : ''}.</p>`
        }
        ${next}
      </section>`;
    sendConsole(response, 200, consolePage(viewer, 'patterns', 'Patterns', body));
  }

  @Post('suggestions/confirm')
  @ConsolePage('rules', 'accountant')
  async confirm(@Req() request: ConsoleRequest, @Body() form: Form, @Res() response: Response) {
    const given: unknown[] = Array.isArray(form.ids) ? form.ids : [form.ids];
    const ids = given.map(text);
    if (ids.some((id) => id.length < 1 || id.length > 64)) invalidField('ids', 'must name suggestions by their ids');
    const confirmed = await this.confirmSuggestions.execute({ caller: request.identity!, ids });
    response.redirect(303, `/console/patterns?done=confirmed&count=${confirmed.length}`);
  }

  @Post('suggestions/refresh')
  @ConsolePage('rules', 'accountant')
  async refresh(@Req() request: ConsoleRequest, @Res() response: Response) {
    const identity = request.identity!;
    const result = await this.importHistory.execute({
      companyId: identity.company,
      actor: identity.actor,
      channel: identity.channel,
    });
    response.redirect(303, `/console/patterns?done=refreshed&count=${result.suggested}`);
  }

  @Post(':id/edit')
  @ConsolePage('rules', 'accountant')
  async edit(@Req() request: ConsoleRequest, @Param('id') id: string, @Body() form: Form, @Res() response: Response) {
    await this.editPattern.execute({
      caller: request.identity!,
      patternId: id,
      changes: {
        accountCode: text(form.accountCode),
        vatRate: text(form.vatRate),
        verified: form.verified === 'on',
      },
    });
    response.redirect(303, '/console/patterns?done=saved');
  }

  @Post(':id/retire')
  @ConsolePage('rules', 'accountant')
  async retire(@Req() request: ConsoleRequest, @Param('id') id: string, @Res() response: Response) {
    await this.retirePattern.execute({ caller: request.identity!, patternId: id });
    response.redirect(303, '/console/patterns?done=retired');
  }
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
        History read from ${state.provider}: ${state.bookingsRead} bookings of ${period}, finished
        <time datetime="${state.finishedAt?.toISOString() ?? ''}"
          >${formatInstant(l, state.finishedAt ?? state.updatedAt)}</time
        >.
      </p>`;
    case 'running':
      return html`<p class="meta" data-import="running">
        Reading the history from ${state.provider} (${period}): ${state.bookingsRead} bookings so far, started by
        ${state.startedBy}.
      </p>`;
    case 'failed':
      return html`<p class="bad" data-import="failed" role="alert">
        Reading the history from ${state.provider} stopped after ${state.bookingsRead} bookings: ${state.error}. Reading
        it again goes on from there.
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

function patternItem(viewer: ConsoleViewer, p: Pattern) {
  const l = viewer.locale;
  const origin = p.writtenBy
    ? html`written by ${p.writtenBy}`
    : p.history
      ? html`suggested by the history`
      : html`learnt from approvals`;
  return html`<li class="item" data-pattern="${p.id}">
    <article aria-labelledby="pattern-${p.id}">
      <h3 id="pattern-${p.id}">${p.merchantName}<span>${p.accountCode} · ${formatRate(l, p.vatRate)}</span></h3>
      <p class="meta">
        ${p.approvals} approval${p.approvals === 1 ? '' : 's'} ·
        ${p.verified ? 'confirmed' : 'not confirmed'}${
          p.confirmedBy.length ? html` by ${p.confirmedBy.join(', ')}` : ''
        }
        · ${origin} · changed ${formatInstant(l, p.updatedAt)}
      </p>
      <form method="post" action="/console/patterns/${p.id}/edit" class="approve">
        ${csrfField(viewer)}
        <label for="acc-${p.id}">Account</label>
        <input id="acc-${p.id}" name="accountCode" value="${p.accountCode}" inputmode="numeric" required size="6" />
        <label for="vat-${p.id}">VAT %</label>
        <input id="vat-${p.id}" name="vatRate" value="${p.vatRate}" inputmode="decimal" required size="5" />
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
