import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { ListReimbursementsHandler, MarkReimbursementPaidHandler } from '@app/application';
import { Clock, osloDate } from '@app/domain';
import { ConsolePage } from '../auth/access.decorator';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { sendConsole } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';
import { renderReimbursementsPage } from './reimbursements.view';

type Form = Record<string, unknown>;

function text(value: unknown): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : undefined;
  return trimmed ? trimmed : undefined;
}

/**
 * The reimbursements page (accountants and admins): the employees' outlays still owed, with a
 * "Mark paid" form each, or those paid back. Through the same ListReimbursementsHandler and
 * MarkReimbursementPaidHandler as GET /v1/reimbursements and POST /v1/reimbursements/{id}/paid,
 * with the session's identity on the channel `web`.
 */
@Controller('console/reimbursements')
@UseFilters(ConsoleExceptionFilter)
export class ReimbursementsConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly list: ListReimbursementsHandler,
    private readonly markPaid: MarkReimbursementPaidHandler,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ConsolePage('query', 'accountant')
  async page(
    @Req() request: ConsoleRequest,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const viewer = await this.viewers.of(request);
    const list = await this.list.execute({
      caller: viewer.identity,
      status: query.status === 'paid' ? 'paid' : 'open',
      cursor: text(query.cursor) ?? null,
    });
    const today = osloDate(this.clock.now());
    sendConsole(
      response,
      200,
      renderReimbursementsPage({ viewer, list, done: query.done === 'paid' ? 'paid' : null, today }),
    );
  }

  @Post(':id/paid')
  @ConsolePage('solve', 'accountant')
  async paid(
    @Req() request: ConsoleRequest,
    @Param('id') id: string,
    @Body() form: Form,
    @Res() response: Response,
  ): Promise<void> {
    await this.markPaid.execute({
      caller: request.identity!,
      proposalId: id,
      paidOn: text(form.paidOn),
      reference: text(form.reference) ?? null,
    });
    response.redirect(303, '/console/reimbursements?done=paid');
  }
}
