import { DomainEvent, EventType } from '../events/domain-event';
import { ProposalStatus } from '../proposal/proposal-status';
import { Page } from '../shared/page';

export interface EventQuery {
  readonly type?: EventType;
  /**
   * Events of proposals *currently* in this status, and of those only the events that left the
   * proposal in it (event.status = status): `PROPOSED` lists the pending proposals' Proposed
   * events; `APPROVED` the Approved (and ExecutionFailed) events of proposals not yet executed or
   * rejected. Pattern events never match a status.
   */
  readonly status?: ProposalStatus;
  readonly correlationId?: string;
  /** occurredAt ≥ from. */
  readonly from?: Date;
  /** occurredAt < to. */
  readonly to?: Date;
  /** 1–200. */
  readonly limit: number;
  /** Opaque, from a previous page's nextCursor. */
  readonly cursor?: string | null;
}

/**
 * The append-only, per-company event store (spec §6). Events are never updated or deleted; the port
 * has no way to.
 *
 * Every event sits at a (correlationId, sequence) position of its chain. `append` stores a batch
 * atomically: if any event's position is already taken it stores none and throws
 * ConcurrencyConflict — of two concurrent appends at one position exactly one wins, never a silent
 * drop. Within the batch, events keep their order.
 */
export abstract class EventStore {
  abstract append(events: readonly DomainEvent[]): Promise<void>;

  /** One chain of one company, oldest first (by sequence). Empty for an unknown or foreign chain. */
  abstract readChain(companyId: string, correlationId: string): Promise<DomainEvent[]>;

  /** One company's events matching every given filter, oldest first (append order), keyset-paginated. */
  abstract list(companyId: string, query: EventQuery): Promise<Page<DomainEvent>>;
}
