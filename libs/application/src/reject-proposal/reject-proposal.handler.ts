import { Injectable } from '@nestjs/common';
import { CompanyContextStore, NotFound, transitionProposal } from '@app/domain';
import { originOf, type Caller } from '../shared/caller';
import { ApplicationContext } from '../shared/domain-context.provider';
import { rejectedMessage } from '../shared/proposal-notifications';
import { proposalEvents, type ProposalView } from '../shared/proposal-view';
import { UnitOfWork } from '../shared/unit-of-work.port';

export interface RejectProposalCommand {
  readonly caller: Caller;
  readonly proposalId: string;
  /** 1–1000 characters (docs/api.md §4.2). */
  readonly reason: string;
}

/**
 * POST /review/{id}/reject: rejects a proposal that is PROPOSED, or APPROVED and not yet executed
 * (an auto-approved one waiting out the company's delay included), and tells the requesting user in
 * their thread why. The Rejected event, the proposal and the notification commit together; of two
 * concurrent reviews of one proposal exactly one wins (the other gets 409 invalid_transition).
 */
@Injectable()
export class RejectProposalHandler {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly contexts: CompanyContextStore,
    private readonly ctx: ApplicationContext,
  ) {}

  async execute(command: RejectProposalCommand): Promise<ProposalView> {
    const { caller, proposalId, reason } = command;
    const origin = originOf(caller, await this.contexts.get(caller.company));
    return this.unitOfWork.run(async (ports) => {
      const current = await ports.proposals.findById(caller.company, proposalId);
      if (!current) throw new NotFound('proposal', proposalId);
      const rejected = transitionProposal(current, { type: 'Reject', origin, reason }, this.ctx);
      await ports.events.append(rejected.events);
      await ports.proposals.update(rejected.proposal, current.version);
      await ports.notifier.notify([rejectedMessage(rejected.proposal)]);
      return { proposal: rejected.proposal, events: await proposalEvents(ports.events, rejected.proposal) };
    });
  }
}
