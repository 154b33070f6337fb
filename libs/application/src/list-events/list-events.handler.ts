import { Injectable } from '@nestjs/common';
import {
  DEFAULT_PAGE_LIMIT,
  EventStore,
  invalidField,
  type DomainEvent,
  type EventType,
  type Page,
  type ProposalStatus,
} from '@app/domain';
import type { Caller } from '../shared/caller';

export interface ListEventsQuery {
  readonly caller: Caller;
  readonly status?: ProposalStatus;
  readonly correlationId?: string;
  readonly type?: EventType;
  readonly from?: Date;
  readonly to?: Date;
  /** 1–200, default 50. */
  readonly limit?: number;
  readonly cursor?: string | null;
}

/**
 * GET /events: the caller's company's events matching every given filter, oldest first,
 * keyset-paginated. `status` lists the events of proposals currently in that status (PROPOSED →
 * the pending proposals), `correlationId` one chain's whole history.
 */
@Injectable()
export class ListEventsHandler {
  constructor(private readonly events: EventStore) {}

  async execute(query: ListEventsQuery): Promise<Page<DomainEvent>> {
    if (query.from && query.to && query.from.getTime() >= query.to.getTime()) {
      invalidField('to', 'must be later than from');
    }
    return this.events.list(query.caller.company, {
      status: query.status,
      correlationId: query.correlationId,
      type: query.type,
      from: query.from,
      to: query.to,
      limit: query.limit ?? DEFAULT_PAGE_LIMIT,
      cursor: query.cursor ?? null,
    });
  }
}
