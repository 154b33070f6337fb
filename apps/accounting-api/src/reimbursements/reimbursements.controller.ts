import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ListReimbursementsHandler, MarkReimbursementPaidHandler, type ReimbursementItem } from '@app/application';
import { formatMoney, type Identity, type Proposal } from '@app/domain';
import { Access } from '../auth/access.decorator';
import { CurrentIdentity } from '../auth/current-identity.decorator';
import { ProblemDto } from '../http/problem.dto';
import {
  ListReimbursementsQueryDto,
  MarkReimbursementPaidDto,
  ReimbursementPageDto,
  ReimbursementPaymentDto,
} from './reimbursement.dto';

@ApiTags('reimbursements')
@Controller('v1/reimbursements')
export class ReimbursementsController {
  constructor(
    private readonly listReimbursements: ListReimbursementsHandler,
    private readonly markPaid: MarkReimbursementPaidHandler,
  ) {}

  @Get()
  @Access('query', 'employee')
  @ApiOperation({
    summary: "Employees' outlays to pay back: executed expenses paid with an employee's own money",
    description:
      'Every EXECUTED proposal with `paidWith: employee`: `status=open` (default) those not yet marked paid back, ' +
      '`paid` those marked, `all` both; `employee` narrows to one submitter. Oldest submission first, ' +
      'keyset-paginated like GET /proposals; `totalsByEmployee` adds up the whole filter. Employees see only ' +
      'their own: without `employee` theirs are listed, naming someone else is 403 permission_denied.',
  })
  @ApiOkResponse({ type: ReimbursementPageDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'validation_failed: an unknown or malformed query parameter',
  })
  async list(
    @CurrentIdentity() identity: Identity,
    @Query() query: ListReimbursementsQueryDto,
  ): Promise<ReimbursementPageDto> {
    const list = await this.listReimbursements.execute({
      caller: identity,
      status: query.status,
      employee: query.employee,
      limit: query.limit,
      cursor: query.cursor,
    });
    return {
      status: list.status,
      items: list.items.map(reimbursementJson),
      nextCursor: list.nextCursor,
      totalsByEmployee: list.totalsByEmployee.map((total) => ({
        employee: total.employee,
        count: total.count,
        amountNok: formatMoney(total.amountNok),
      })),
    };
  }

  @Post(':proposalId/paid')
  @HttpCode(HttpStatus.OK)
  @Access('solve', 'accountant')
  @ApiOperation({
    summary: "Mark an employee's outlay as paid back",
    description:
      'Records the payout (a ReimbursementPaid event on the proposal) so the outlay leaves the open list. Nothing ' +
      "is booked at the provider: the bank's payout is matched there by bank reconciliation. Once only: a second " +
      'mark is 409 invalid_transition and changes nothing.',
  })
  @ApiParam({ name: 'proposalId', description: "the expense's proposal id" })
  @ApiOkResponse({ type: ReimbursementPaymentDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'validation_failed: paidOn not a date (or more than a day ahead), reference empty or too long',
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: "no such proposal in the caller's company" })
  @ApiConflictResponse({
    type: ProblemDto,
    description:
      "invalid_transition: not EXECUTED, not an employee's outlay, or already marked paid back (also when another mark won a race)",
  })
  async paid(
    @CurrentIdentity() identity: Identity,
    @Param('proposalId') proposalId: string,
    @Body() body: MarkReimbursementPaidDto,
  ): Promise<ReimbursementPaymentDto> {
    const proposal = await this.markPaid.execute({
      caller: identity,
      proposalId,
      paidOn: body.paidOn,
      reference: body.reference ?? null,
    });
    return paymentJson(proposal) as ReimbursementPaymentDto;
  }
}

function paymentJson(proposal: Proposal): ReimbursementPaymentDto | null {
  const r = proposal.reimbursement;
  if (!r) return null;
  return { paidOn: r.paidOn, reference: r.reference, markedBy: r.markedBy, markedAt: r.markedAt.toISOString() };
}

function reimbursementJson({ proposal, employee, bookedAt }: ReimbursementItem) {
  const payment = paymentJson(proposal);
  return {
    proposalId: proposal.id,
    status: payment ? ('paid' as const) : ('open' as const),
    employee: {
      email: proposal.submittedBy,
      userId: employee?.userId ?? null,
      providerEmployeeId: employee?.providerEmployeeId ?? null,
    },
    amountNok: formatMoney(proposal.amountNok ?? proposal.amount),
    currency: proposal.currency,
    amount: formatMoney(proposal.amount),
    merchant: proposal.merchant,
    date: proposal.date,
    description: proposal.description,
    bookedAt: bookedAt.toISOString(),
    // listReimbursements lists only executed proposals, which have their booking.
    booking: { provider: proposal.booking?.provider ?? '', bookingId: proposal.booking?.bookingId ?? '' },
    payment,
  };
}
