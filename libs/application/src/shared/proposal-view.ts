import type { EventStore, Proposal, ProposalEvent } from '@app/domain';
import type { ProposalPostings } from './proposal-postings';

/** A proposal and the events that brought it to its state, oldest first. */
export interface ProposalView {
  readonly proposal: Proposal;
  readonly events: ProposalEvent[];
  /** Its postings, planned and read back (GET /proposals/{id} only). */
  readonly postings?: ProposalPostings;
}

/** The events of `proposal` in its chain (a resubmission's chain also holds its predecessors'). */
export async function proposalEvents(events: EventStore, proposal: Proposal): Promise<ProposalEvent[]> {
  const chain = await events.readChain(proposal.companyId, proposal.correlationId);
  return chain.filter((event): event is ProposalEvent => event.proposalId === proposal.id && event.status !== null);
}
