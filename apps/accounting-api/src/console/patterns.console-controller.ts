import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { EditPatternHandler, ListPatternsHandler, RetirePatternHandler } from '@app/application';
import { MAX_PAGE_LIMIT, type Pattern } from '@app/domain';
import { ConsolePage } from '../auth/access.decorator';
import { html } from '../onboarding/html';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { formatInstant, formatRate } from './console-format';
import { consolePage, csrfField, sendConsole, type ConsoleViewer } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';

type Form = Record<string, unknown>;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The merchant patterns (accountants): list and search by merchant, edit account, VAT and
 * whether it is confirmed, retire — through the handlers of GET/PUT/DELETE /v1/patterns, so each
 * change is a PatternSaved or PatternRetired event with the person as actor on the channel `web`.
 */
@Controller('console/patterns')
@UseFilters(ConsoleExceptionFilter)
export class PatternsConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly listPatterns: ListPatternsHandler,
    private readonly editPattern: EditPatternHandler,
    private readonly retirePattern: RetirePatternHandler,
  ) {}

  @Get()
  @ConsolePage('rules', 'accountant')
  async list(@Req() request: ConsoleRequest, @Query() query: Record<string, unknown>, @Res() response: Response) {
    const viewer = await this.viewers.of(request);
    const merchant = text(query.merchant).slice(0, 200);
    const cursor = text(query.cursor) || null;
    const page = await this.listPatterns.execute({
      caller: viewer.identity,
      merchant: merchant || undefined,
      limit: MAX_PAGE_LIMIT,
      cursor,
    });
    const done = text(query.done);
    const notice = done === 'saved' ? 'Pattern saved.' : done === 'retired' ? 'Pattern retired.' : null;
    const next = page.nextCursor
      ? html`<p>
          <a href="/console/patterns?${new URLSearchParams({ merchant, cursor: page.nextCursor }).toString()}"
            >More patterns →</a
          >
        </p>`
      : '';
    const body = html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
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
      ${next}`;
    sendConsole(response, 200, consolePage(viewer, 'patterns', 'Patterns', body));
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

function patternItem(viewer: ConsoleViewer, p: Pattern) {
  const l = viewer.locale;
  return html`<li class="item" data-pattern="${p.id}">
    <article aria-labelledby="pattern-${p.id}">
      <h3 id="pattern-${p.id}">${p.merchantName}<span>${p.accountCode} · ${formatRate(l, p.vatRate)}</span></h3>
      <p class="meta">
        ${p.approvals} approval${p.approvals === 1 ? '' : 's'} ·
        ${p.verified ? 'confirmed' : 'not confirmed'}${
          p.confirmedBy.length ? html` by ${p.confirmedBy.join(', ')}` : ''
        }
        · written by ${p.writtenBy ?? 'learnt from approvals'} · changed ${formatInstant(l, p.updatedAt)}
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
