import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApproveProposalHandler,
  GetProposalChain,
  GetProposalHandler,
  GetProposalReceipt,
  RejectProposalHandler,
  ReviewQueue,
} from '@app/application';
import { ConsolePage } from '../auth/access.decorator';
import { ConsoleExceptionFilter } from './console-exception.filter';
import { sendConsole } from './console-page';
import type { ConsoleRequest } from './console-session.guard';
import { ConsoleViewers } from './console-viewers';
import { renderProposalPage, renderReviewPage } from './review.view';

type Form = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * The review queue and the proposal page. Reading goes through ReviewQueue, GetProposalHandler
 * and GetProposalChain (which also checks the events in the hash chain); approving, rejecting and stopping through the same ApproveProposalHandler
 * and RejectProposalHandler as POST /v1/review/{id}/approve|reject, with the session's identity on
 * the channel `web` — so separation of duties, the chart checks and the audit events are the API's.
 */
@Controller('console')
@UseFilters(ConsoleExceptionFilter)
export class ReviewConsoleController {
  constructor(
    private readonly viewers: ConsoleViewers,
    private readonly queue: ReviewQueue,
    private readonly approveProposal: ApproveProposalHandler,
    private readonly rejectProposal: RejectProposalHandler,
    private readonly getProposal: GetProposalHandler,
    private readonly proposalChain: GetProposalChain,
    private readonly proposalReceipt: GetProposalReceipt,
  ) {}

  @Get()
  @ConsolePage('monitor', 'manager')
  home(@Res() response: Response): void {
    response.redirect(303, '/console/review');
  }

  @Get('review')
  @ConsolePage('monitor', 'manager')
  async review(
    @Req() request: ConsoleRequest,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const viewer = await this.viewers.of(request);
    const queue = await this.queue.execute(viewer.identity);
    const done = text(query.done);
    sendConsole(
      response,
      200,
      renderReviewPage({
        viewer,
        queue,
        done: done === 'approved' || done === 'rejected' || done === 'stopped' ? done : null,
      }),
    );
  }

  @Post('proposals/:id/approve')
  @ConsolePage('solve', 'accountant')
  async approve(
    @Req() request: ConsoleRequest,
    @Param('id') id: string,
    @Body() form: Form,
    @Res() response: Response,
  ): Promise<void> {
    const identity = request.identity!;
    const current = await this.getProposal.execute({ caller: identity, proposalId: id });
    const accountCode = text(form.accountCode);
    const vatRate = text(form.vatRate);
    const corrections: { accountCode?: string; vatRate?: string } = {};
    if (accountCode && accountCode !== current.proposal.accountCode) corrections.accountCode = accountCode;
    if (vatRate && vatRate !== current.proposal.vatRate) corrections.vatRate = vatRate;
    await this.approveProposal.execute({
      caller: identity,
      proposalId: id,
      corrections: Object.keys(corrections).length ? corrections : null,
    });
    response.redirect(303, '/console/review?done=approved');
  }

  @Post('proposals/:id/reject')
  @ConsolePage('solve', 'accountant')
  async reject(
    @Req() request: ConsoleRequest,
    @Param('id') id: string,
    @Body() form: Form,
    @Res() response: Response,
  ): Promise<void> {
    await this.rejectProposal.execute({ caller: request.identity!, proposalId: id, reason: text(form.reason) ?? '' });
    response.redirect(303, `/console/review?done=${form.stop === '1' ? 'stopped' : 'rejected'}`);
  }

  @Get('proposals/:id')
  @ConsolePage('monitor', 'manager')
  async proposal(@Req() request: ConsoleRequest, @Param('id') id: string, @Res() response: Response): Promise<void> {
    const viewer = await this.viewers.of(request);
    const chain = await this.proposalChain.execute({ caller: viewer.identity, proposalId: id });
    sendConsole(response, 200, renderProposalPage({ viewer, chain }));
  }

  @Get('proposals/:id/receipt')
  @ConsolePage('monitor', 'manager')
  async receipt(@Req() request: ConsoleRequest, @Param('id') id: string, @Res() response: Response): Promise<void> {
    const receipt = await this.proposalReceipt.execute({ caller: request.identity!, proposalId: id });
    response
      .status(200)
      .set({
        'Content-Type': receipt.contentType,
        'Content-Disposition': `inline; filename="receipt-${id}"`,
        'Cache-Control': 'private, no-store',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'self'",
        'X-Content-Type-Options': 'nosniff',
        'X-Frame-Options': 'SAMEORIGIN',
        'Referrer-Policy': 'no-referrer',
      })
      .send(Buffer.from(receipt.bytes));
  }
}
