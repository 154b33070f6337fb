import { Body, Controller, Get, HttpStatus, Param, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { GetProposalHandler, SubmitProposalHandler } from '@app/application';
import { minScoreOf, type Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { LargeBody } from '../http/request-body';
import { ApiIdempotent, IDEMPOTENT_REPLAYED_HEADER, IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { ProposalDto, SubmitProposalDto } from './proposal.dto';
import { proposalJson } from './proposal.mapper';

@ApiTags('proposals')
@Controller('v1/proposals')
export class ProposalsController {
  constructor(
    private readonly submitProposal: SubmitProposalHandler,
    private readonly getProposal: GetProposalHandler,
  ) {}

  @Post()
  @Access('solve', 'employee')
  @LargeBody()
  @ApiOperation({
    summary: 'Submit a proposal: scored, routed, maybe auto-approved',
    description:
      `Stores Proposed, and Approved too when the score is ≥ ${minScoreOf('auto_approve')} (executeAfter = now + the company's execution delay). ` +
      "A review-routed proposal is posted to the review channel; an auto-approval is told to the user's thread.",
  })
  @ApiIdempotent()
  @ApiCreatedResponse({ type: ProposalDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'validation_failed, with errors[] naming each field' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'resubmissionOf names no proposal of the company' })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: "unknown_account_code / unknown_vat_rate: not in the company's chart",
  })
  async submit(
    @CurrentIdentity() identity: Identity,
    @Body() body: SubmitProposalDto,
    @IdempotencyKey() key: string | null,
    @Res({ passthrough: true }) response: Response,
  ): Promise<unknown> {
    const outcome = await this.submitProposal.execute({
      caller: identity,
      submission: body,
      idempotency:
        key === null ? null : { key, respond: (view) => ({ status: HttpStatus.CREATED, body: proposalJson(view) }) },
    });
    if (outcome.replayed) {
      response.status(outcome.response.status).setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return outcome.response.body;
    }
    response.status(HttpStatus.CREATED);
    return proposalJson(outcome.result);
  }

  @Get(':id')
  @Access('query', 'employee')
  @ApiOperation({ summary: 'A proposal with its status, score, reasons and events (employees: only their own)' })
  @ApiParam({ name: 'id', description: "the proposal's id" })
  @ApiOkResponse({ type: ProposalDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: "no such proposal in the caller's company" })
  async get(@CurrentIdentity() identity: Identity, @Param('id') id: string): Promise<ProposalDto> {
    return proposalJson(await this.getProposal.execute({ caller: identity, proposalId: id }));
  }
}
