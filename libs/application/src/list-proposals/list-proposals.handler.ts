import { Injectable } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  EventStore,
  invalidField,
  PermissionDenied,
  ProposalRepository,
  sameActor,
  type AccountingDate,
  type Page,
  type ProposalStatus,
} from '@app/domain';
import type { Caller } from '../shared/caller';
import { proposalEvents, type ProposalView } from '../shared/proposal-view';

export interface ListProposalsQuery {
  readonly caller: Caller;
  readonly status?: ProposalStatus;
  /** The submitter's email, any letter case. */
  readonly submittedBy?: string;
  /** Accounting dates, both inclusive. */
  readonly dateFrom?: AccountingDate;
  readonly dateTo?: AccountingDate;
  /** 1–200, default 50. */
  readonly limit?: number;
  readonly cursor?: string | null;
}

/**
 * GET /proposals: the caller's company's proposals matching every given filter, oldest submission
 * first, keyset-paginated, each with its events — as GET /proposals/{id} shows one. Who may read
 * what is as for one proposal (assertMayRead): managers and above every proposal of the company,
 * an employee only their own — without `submittedBy` their own are listed, and asking for someone
 * else's is 403 permission_denied.
 */
@Injectable()
export class ListProposalsHandler {
  constructor(
    private readonly proposals: ProposalRepository,
    private readonly events: EventStore,
  ) {}

  async execute(query: ListProposalsQuery): Promise<Page<ProposalView>> {
    const { caller } = query;
    if (query.dateFrom !== undefined && query.dateTo !== undefined && query.dateFrom > query.dateTo) {
      invalidField('dateTo', 'must not be before dateFrom');
    }
    let submittedBy = query.submittedBy;
    if (caller.role === 'employee') {
      if (submittedBy !== undefined && !sameActor(submittedBy, caller.actor)) {
        throw new PermissionDenied('employees may list only their own proposals; submittedBy names someone else');
      }
      submittedBy = caller.actor;
    }
    const page = await this.proposals.list(
      caller.company,
      { status: query.status, submittedBy, dateFrom: query.dateFrom, dateTo: query.dateTo },
      { limit: query.limit ?? DEFAULT_PAGE_LIMIT, cursor: query.cursor ?? null },
    );
    const items = await Promise.all(
      page.items.map(async (proposal) => ({ proposal, events: await proposalEvents(this.events, proposal) })),
    );
    return { items, nextCursor: page.nextCursor };
  }
}
