import { Injectable, Logger } from '@nestjs/common';
import {
  AccountingProvider,
  BookingHistoryStore,
  confirmSuggestion,
  DEFAULT_PAGE_LIMIT,
  deriveSuggestions,
  historyStart,
  invalidField,
  NotFound,
  PatternStore,
  suggestPattern,
  type EventOrigin,
  type HistoryImport,
  type Page,
  type Pattern,
} from '@app/domain';
import { ProviderConnections } from '../onboarding/provider-connections';
import { originOf, type Caller } from '../shared/caller';
import { ApplicationContext } from '../shared/domain-context.provider';
import { UnitOfWork } from '../shared/unit-of-work.port';

/** How many suggestions one confirmation takes at most. */
export const MAX_CONFIRMATIONS = 200;

export interface ImportHistoryCommand {
  readonly companyId: string;
  /** Who asked: an accountant's token `sub`, `onboarding` on connect, or the CLI's operator. */
  readonly actor: string;
  readonly channel?: EventOrigin['channel'];
  /** Called after each page is stored (the CLI's progress bar). */
  readonly onProgress?: (state: HistoryImport, progress: number) => void;
}

export interface ImportHistoryResult {
  readonly import: HistoryImport;
  /** Suggestions made or refreshed by this run. */
  readonly suggested: number;
  /** Merchants with enough bookings whose accounts were too mixed to suggest one. */
  readonly derived: number;
}

/**
 * Reads the last HISTORY_MONTHS of the company's expense bookings from its provider and derives
 * merchant → (account, VAT) suggestions (docs/trust.md):
 *
 * 1. resume the import where it stopped (same provider, not done: its period and cursor), or
 *    start one for the 12 months up to today;
 * 2. read page by page (the provider adapters honour 429 / Retry-After and page limits), storing
 *    each page's bookings and the cursor after it in one transaction, so that a restart reads on
 *    from the last page stored — a page read twice is stored once;
 * 3. derive the suggestions from every booking of the period (deriveSuggestions) and store them as
 *    unverified patterns in one unit of work with their PatternSaved events (cause `suggested`);
 *    what people decided — patterns learnt from approvals, written by an accountant, confirmed
 *    suggestions — is left as it is.
 *
 * A failure stores the import as failed with its reason, cursor kept, and is rethrown.
 */
@Injectable()
export class ImportBookingHistoryHandler {
  private readonly logger = new Logger(ImportBookingHistoryHandler.name);

  constructor(
    private readonly history: BookingHistoryStore,
    private readonly connections: ProviderConnections,
    private readonly provider: AccountingProvider,
    private readonly unitOfWork: UnitOfWork,
    private readonly ctx: ApplicationContext,
  ) {}

  async execute(command: ImportHistoryCommand): Promise<ImportHistoryResult> {
    const { companyId } = command;
    const { connection, record } = await this.connections.require(companyId);
    const now = this.ctx.clock.now();
    const previous = await this.history.findImport(companyId);
    const resume = previous !== null && previous.status !== 'done' && previous.provider === record.provider;
    const today = now.toISOString().slice(0, 10);
    let state: HistoryImport = resume
      ? { ...previous, status: 'running', error: null, updatedAt: now }
      : {
          companyId,
          provider: record.provider,
          periodFrom: historyStart(today),
          periodTo: today,
          status: 'running',
          cursor: null,
          bookingsRead: 0,
          pagesRead: 0,
          startedBy: command.actor,
          startedAt: now,
          updatedAt: now,
          finishedAt: null,
          error: null,
        };
    await this.history.saveImport(state);
    try {
      await this.connections.call(companyId, async () => {
        const pages = this.provider.bookingHistoryPages(connection, state.periodFrom, state.periodTo, state.cursor);
        for await (const page of pages) {
          state = {
            ...state,
            cursor: page.cursor,
            bookingsRead: state.bookingsRead + page.bookings.length,
            pagesRead: state.pagesRead + 1,
            updatedAt: this.ctx.clock.now(),
          };
          await this.history.savePage(page.bookings, state);
          command.onProgress?.(state, progressOf(state, page.bookings.at(-1)?.date));
          if (page.cursor === null) break;
        }
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.history.saveImport({ ...state, status: 'failed', error: message, updatedAt: this.ctx.clock.now() });
      throw error;
    }
    const derived = deriveSuggestions(await this.history.bookingsSince(companyId, state.periodFrom));
    const origin: EventOrigin = { actor: command.actor, channel: command.channel ?? 'web', provider: record.provider };
    const suggested = await this.unitOfWork.run(async (ports) => {
      let count = 0;
      for (const suggestion of derived) {
        const existing = await ports.patterns.list(companyId, {
          merchantKey: suggestion.merchantKey,
          limit: 200,
        });
        for (const change of suggestPattern(companyId, existing.items, suggestion, origin, this.ctx)) {
          const expected = change.pattern.version === 1 ? null : change.pattern.version - 1;
          await ports.patterns.save(change.pattern, expected);
          await ports.events.append(change.events);
          if (change.pattern.retiredAt === null) count++;
        }
      }
      return count;
    });
    state = {
      ...state,
      status: 'done',
      cursor: null,
      finishedAt: this.ctx.clock.now(),
      updatedAt: this.ctx.clock.now(),
    };
    await this.history.saveImport(state);
    this.logger.log(
      `history import of ${companyId}: ${state.bookingsRead} bookings read, ${suggested} suggestions made or refreshed`,
    );
    command.onProgress?.(state, 1);
    return { import: state, suggested, derived: derived.length };
  }
}

/** How far the import is, from the date of the last booking read (the providers read oldest first). */
function progressOf(state: HistoryImport, lastDate: string | undefined): number {
  if (state.cursor === null) return 1;
  if (!lastDate) return 0;
  const from = Date.parse(state.periodFrom);
  const span = Date.parse(state.periodTo) - from;
  return span <= 0 ? 0 : Math.min(0.99, Math.max(0, (Date.parse(lastDate) - from) / span));
}

export interface ListSuggestionsQuery {
  readonly caller: Caller;
  /** 1–200, default 50. */
  readonly limit?: number;
  readonly cursor?: string | null;
}

export interface SuggestionsPage extends Page<Pattern> {
  /** The company's last history import, or null when none ran. */
  readonly import: HistoryImport | null;
}

/** GET /patterns/suggestions: the suggestions no one has confirmed yet, oldest first, and the import's state. */
@Injectable()
export class ListSuggestionsHandler {
  constructor(
    private readonly patterns: PatternStore,
    private readonly history: BookingHistoryStore,
  ) {}

  async execute(query: ListSuggestionsQuery): Promise<SuggestionsPage> {
    const [page, state] = await Promise.all([
      this.patterns.list(query.caller.company, {
        pendingSuggestions: true,
        limit: query.limit ?? DEFAULT_PAGE_LIMIT,
        cursor: query.cursor ?? null,
      }),
      this.history.findImport(query.caller.company),
    ]);
    return { ...page, import: state };
  }
}

export interface ConfirmSuggestionsCommand {
  readonly caller: Caller;
  /** The suggestions' pattern ids: one, or many at once. */
  readonly ids: readonly string[];
}

/**
 * POST /patterns/suggestions/confirm: the accountant confirms suggestions, which become verified
 * patterns with the history's amounts and her as their confirmer (confirmSuggestion). All or none:
 * one unknown id (404) or one that is no longer a pending suggestion (409) confirms nothing.
 */
@Injectable()
export class ConfirmSuggestionsHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly ctx: ApplicationContext,
  ) {}

  async execute(command: ConfirmSuggestionsCommand): Promise<Pattern[]> {
    const ids = [...new Set(command.ids)];
    if (ids.length === 0 || ids.length > MAX_CONFIRMATIONS) {
      invalidField('ids', `must name 1 to ${MAX_CONFIRMATIONS} suggestions`);
    }
    const origin = originOf(command.caller, null);
    return this.unitOfWork.run(async (ports) => {
      const confirmed: Pattern[] = [];
      for (const id of ids) {
        const pattern = await ports.patterns.findById(command.caller.company, id);
        if (!pattern) throw new NotFound('pattern', id);
        const change = confirmSuggestion(pattern, origin, this.ctx);
        await ports.patterns.save(change.pattern, pattern.version);
        await ports.events.append(change.events);
        confirmed.push(change.pattern);
      }
      return confirmed;
    });
  }
}
