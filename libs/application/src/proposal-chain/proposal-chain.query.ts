import { Injectable } from '@nestjs/common';
import {
  CompanySettingsStore,
  EventChainVerification,
  EventStore,
  ProposalRepository,
  type DomainEvent,
  type EventsVerification,
  type Proposal,
} from '@app/domain';
import type { Caller } from '../shared/caller';
import { readableProposal } from '../shared/proposal-access';
import { proposalPostings, type ProposalPostings } from '../shared/proposal-postings';

export interface ProposalChainQuery {
  readonly caller: Caller;
  readonly proposalId: string;
}

/** A proposal, every event of its chain (its resubmissions' too) and how they stand in the hash chain. */
export interface ProposalChainView {
  readonly proposal: Proposal;
  /** Oldest first; at most MAX_CHAIN_EVENTS (a chain is a handful of events in practice). */
  readonly events: DomainEvent[];
  readonly verification: EventsVerification;
  /** The postings it will book, and once executed those read back from the provider. */
  readonly postings?: ProposalPostings;
}

/** How many events of one chain are read at most: a bound on the page, far above a real chain. */
export const MAX_CHAIN_EVENTS = 1000;
const PAGE = 200;

/**
 * The proposal page of the console: a proposal of the caller's company (read under the rules of
 * GET /proposals/{id}), the events of its chain, and the chain's check against the company's
 * tamper-evident hash chain (EventChainVerification).
 */
@Injectable()
export class GetProposalChain {
  constructor(
    private readonly proposals: ProposalRepository,
    private readonly events: EventStore,
    private readonly chains: EventChainVerification,
    private readonly settings: CompanySettingsStore,
  ) {}

  async execute(query: ProposalChainQuery): Promise<ProposalChainView> {
    const { caller, proposalId } = query;
    const proposal = await readableProposal(this.proposals, caller, proposalId);
    const events: DomainEvent[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.events.list(caller.company, {
        correlationId: proposal.correlationId,
        limit: PAGE,
        cursor,
      });
      events.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null && events.length < MAX_CHAIN_EVENTS);
    const verification = await this.chains.verifyChain(caller.company, proposal.correlationId);
    const settings = await this.settings.get(caller.company);
    return { proposal, events, verification, postings: proposalPostings(proposal, settings, null) };
  }
}
