import { Injectable } from '@nestjs/common';
import {
  Clock,
  CompanyContextStore,
  CompanySettingsStore,
  MAX_PAGE_LIMIT,
  ProposalRepository,
  type CompanyContext,
  type Proposal,
  type ProposalStatus,
} from '@app/domain';
import type { Caller } from '../shared/caller';
import { proposalPostings, type ProposalPostings } from '../shared/proposal-postings';

/** How many proposals of one status the queue reads at most (a review backlog beyond it is shown as "more"). */
export const REVIEW_QUEUE_LIMIT = 1000;

export interface ReviewQueueView {
  /** PROPOSED proposals, newest submission first. */
  readonly pending: Proposal[];
  /** Auto-approved proposals still inside their execution delay (they can be stopped), soonest first. */
  readonly delayed: Proposal[];
  /** True when the queue holds more than REVIEW_QUEUE_LIMIT proposals of a status. */
  readonly truncated: boolean;
  /** The company's chart, for the corrections a reviewer may choose; null before it is fetched. */
  readonly context: CompanyContext | null;
  /** Each listed proposal's planned postings, by id (docs/bookkeeping.md). */
  readonly postings?: ReadonlyMap<string, ProposalPostings>;
}

/**
 * What a reviewer works through (the console's review queue): the company's pending proposals,
 * newest first, and the auto-approvals that can still be stopped, with the chart of accounts the
 * corrections are chosen from. Reading only; approving, rejecting and stopping go through
 * ApproveProposalHandler and RejectProposalHandler.
 */
@Injectable()
export class ReviewQueue {
  constructor(
    private readonly proposals: ProposalRepository,
    private readonly contexts: CompanyContextStore,
    private readonly clock: Clock,
    private readonly settings: CompanySettingsStore,
  ) {}

  async execute(caller: Caller): Promise<ReviewQueueView> {
    const now = this.clock.now().getTime();
    const [pending, approved, context, settings] = await Promise.all([
      this.all(caller.company, 'PROPOSED'),
      this.all(caller.company, 'APPROVED'),
      this.contexts.get(caller.company),
      this.settings.get(caller.company),
    ]);
    const newestFirst = (a: Proposal, b: Proposal) =>
      b.submittedAt.getTime() - a.submittedAt.getTime() || (a.id < b.id ? 1 : -1);
    const delayed = approved.items.filter(
      (p) => p.autoApproved && p.booking === null && p.executeAfter !== null && p.executeAfter.getTime() > now,
    );
    return {
      pending: pending.items.sort(newestFirst),
      delayed: delayed.sort((a, b) => a.executeAfter!.getTime() - b.executeAfter!.getTime()),
      truncated: pending.truncated || approved.truncated,
      context,
      postings: new Map(
        [...pending.items, ...delayed].map((p) => [p.id, proposalPostings(p, settings, null)] as const),
      ),
    };
  }

  private async all(company: string, status: ProposalStatus): Promise<{ items: Proposal[]; truncated: boolean }> {
    const items: Proposal[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.proposals.listByStatus(company, status, { limit: MAX_PAGE_LIMIT, cursor });
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null && items.length < REVIEW_QUEUE_LIMIT);
    return {
      items: items.slice(0, REVIEW_QUEUE_LIMIT),
      truncated: cursor !== null || items.length > REVIEW_QUEUE_LIMIT,
    };
  }
}
