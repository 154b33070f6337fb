import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import {
  CompanyContextService,
  ConfirmSuggestionsHandler,
  EditPatternHandler,
  ImportBookingHistoryHandler,
  ListPatternsHandler,
  ListSuggestionsHandler,
  RetirePatternHandler,
} from '@app/application';
import { invalidField, MAX_PAGE_LIMIT } from '@app/domain';
import { ConsolePage } from '../auth/access.decorator';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { sendConsole } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';
import { renderPatternsPage } from './patterns.view';

type Form = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** A field the form may leave out (kept as it is) or empty (not known: null). */
function optional(value: unknown): string | null | undefined {
  return value === undefined ? undefined : text(value) || null;
}

/**
 * Suggestions shown at once. A "confirm all shown" form carries one id each, well inside the
 * console form parser's parameter limit.
 */
const SUGGESTIONS_PER_PAGE = 20;

/**
 * The merchant patterns (accountants): the suggestions the company's booking history makes, to
 * confirm or to read again from the provider, then every pattern, to search by merchant, edit
 * (account, VAT rate and treatment, the supplier's organisation number, whether it is confirmed) and retire. Everything goes through the handlers of
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
    private readonly contexts: CompanyContextService,
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
      this.contexts.cached(viewer.identity.company),
    ]);
    const count = text(query.count);
    const done = text(query.done);
    sendConsole(
      response,
      200,
      renderPatternsPage({
        viewer,
        merchant,
        patterns: page,
        suggestions,
        context,
        done,
        count: /^\d{1,6}$/.test(count) ? Number(count) : null,
      }),
    );
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
        vatTreatment: optional(form.vatTreatment),
        supplierOrganizationNumber: optional(form.supplierOrganizationNumber),
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
