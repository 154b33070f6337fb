import { Body, Controller, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApproveProposalHandler, RejectProposalHandler } from '@app/application';
import type { Identity } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import { ProposalDto } from '../proposals/proposal.dto';
import { proposalJson } from '../proposals/proposal.mapper';
import { ApproveProposalDto, RejectProposalDto } from './review.dto';

@ApiTags('review')
@Controller('v1/review')
export class ReviewController {
  constructor(
    private readonly approveProposal: ApproveProposalHandler,
    private readonly rejectProposal: RejectProposalHandler,
  ) {}

  @Post(':id/approve')
  @HttpCode(HttpStatus.OK)
  @Access('solve', 'accountant')
  @ApiOperation({
    summary: 'Approve a PROPOSED proposal, with optional corrections; it is executed promptly',
    description:
      'Saves or strengthens the pattern merchant → (account code, VAT rate) with the corrected values (a PatternSaved event). ' +
      'The submitter cannot approve their own proposal.',
  })
  @ApiParam({ name: 'id', description: "the proposal's id" })
  @ApiOkResponse({ type: ProposalDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'validation_failed: malformed corrections' })
  @ApiNotFoundResponse({ type: ProblemDto, description: "no such proposal in the caller's company" })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'invalid_transition: not PROPOSED (also when another review won a race)',
  })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: "unknown_account_code / unknown_vat_rate: a correction not in the company's chart",
  })
  async approve(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @Body() body: ApproveProposalDto,
  ): Promise<ProposalDto> {
    const approved = await this.approveProposal.execute({
      caller: identity,
      proposalId: id,
      corrections: body.corrections ?? null,
    });
    return proposalJson(approved);
  }

  @Post(':id/reject')
  @HttpCode(HttpStatus.OK)
  @Access('solve', 'accountant')
  @ApiOperation({
    summary:
      'Reject a proposal with a reason: PROPOSED, or APPROVED and not yet executed (an auto-approved one included)',
    description:
      'The user is told in their thread, with the reason; they may resubmit a corrected proposal (resubmissionOf).',
  })
  @ApiParam({ name: 'id', description: "the proposal's id" })
  @ApiOkResponse({ type: ProposalDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'validation_failed: reason missing, empty or over 1000 characters',
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: "no such proposal in the caller's company" })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'invalid_transition: already EXECUTED or REJECTED (also when another review won a race)',
  })
  async reject(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @Body() body: RejectProposalDto,
  ): Promise<ProposalDto> {
    return proposalJson(await this.rejectProposal.execute({ caller: identity, proposalId: id, reason: body.reason }));
  }
}
