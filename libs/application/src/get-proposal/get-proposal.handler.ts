import { Injectable } from '@nestjs/common';
import { EventStore, ProposalRepository } from '@app/domain';
import type { Caller } from '../shared/caller';
import { readableProposal } from '../shared/proposal-access';
import { proposalEvents, type ProposalView } from '../shared/proposal-view';

export interface GetProposalQuery {
  readonly caller: Caller;
  readonly proposalId: string;
}

/**
 * GET /proposals/{id}: a proposal of the caller's company with its events. Another company's id is
 * not found (404); an employee may read only the proposals they submitted (403 permission_denied),
 * managers and above every proposal of their company.
 */
@Injectable()
export class GetProposalHandler {
  constructor(
    private readonly proposals: ProposalRepository,
    private readonly events: EventStore,
  ) {}

  async execute(query: GetProposalQuery): Promise<ProposalView> {
    const { caller, proposalId } = query;
    const proposal = await readableProposal(this.proposals, caller, proposalId);
    return { proposal, events: await proposalEvents(this.events, proposal) };
  }
}
