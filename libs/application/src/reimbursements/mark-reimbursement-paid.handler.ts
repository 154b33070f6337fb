import { Injectable } from '@nestjs/common';
import { CompanyContextStore, NotFound, osloDate, transitionProposal, type Proposal } from '@app/domain';
import { originOf, type Caller } from '../shared/caller';
import { ApplicationContext } from '../shared/domain-context.provider';
import { UnitOfWork } from '../shared/unit-of-work.port';

export interface MarkReimbursementPaidCommand {
  readonly caller: Caller;
  readonly proposalId: string;
  /** YYYY-MM-DD; default today in Norway. */
  readonly paidOn?: string;
  readonly reference?: string | null;
}

/**
 * POST /reimbursements/{proposalId}/paid: records that an executed employee outlay was paid back
 * (the ReimbursementPaid event on the proposal's chain, and the proposal's `reimbursement`, in one
 * transaction). Nothing is booked at the provider: the payout from the bank is matched there by
 * the provider's bank reconciliation against the debt the expense booked. A proposal that is not an
 * executed employee outlay, or one already marked, is 409 invalid_transition; of two concurrent
 * marks exactly one wins.
 */
@Injectable()
export class MarkReimbursementPaidHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly contexts: CompanyContextStore,
    private readonly ctx: ApplicationContext,
  ) {}

  async execute(command: MarkReimbursementPaidCommand): Promise<Proposal> {
    const { caller, proposalId } = command;
    const origin = originOf(caller, await this.contexts.get(caller.company));
    return this.unitOfWork.run(async (ports) => {
      const current = await ports.proposals.findById(caller.company, proposalId);
      if (!current) throw new NotFound('proposal', proposalId);
      const marked = transitionProposal(
        current,
        {
          type: 'MarkReimbursed',
          origin,
          paidOn: command.paidOn ?? osloDate(this.ctx.clock.now()),
          reference: command.reference ?? null,
        },
        this.ctx,
      );
      await ports.events.append(marked.events);
      await ports.proposals.update(marked.proposal, current.version);
      return marked.proposal;
    });
  }
}
