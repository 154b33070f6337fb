import { ConcurrencyConflict, DomainEvent, EventQuery, EventStore, Page, ProposalStatus } from '@app/domain';
import { assertLimit, pageAfter } from './cursor';
import { copy, Snapshottable } from './snapshottable';

interface StoredEvent {
  readonly position: number;
  readonly event: DomainEvent;
}

/** EventStore in a list, in append order. Same contract as the TypeORM adapter (event-store.contract.ts). */
export class InMemoryEventStore extends EventStore implements Snapshottable {
  private stored: StoredEvent[] = [];

  async append(events: readonly DomainEvent[]): Promise<void> {
    const taken = new Set(this.stored.map(({ event }) => slotOf(event)));
    for (const event of events) {
      const slot = slotOf(event);
      if (taken.has(slot)) {
        throw new ConcurrencyConflict(
          `event chain ${event.correlationId} already has an event at sequence ${event.sequence}`,
        );
      }
      taken.add(slot);
    }
    let position = this.stored.length;
    for (const event of events) this.stored.push({ position: ++position, event: copy(event) });
  }

  async readChain(companyId: string, correlationId: string): Promise<DomainEvent[]> {
    return this.stored
      .map(({ event }) => event)
      .filter((event) => event.company === companyId && event.correlationId === correlationId)
      .sort((a, b) => a.sequence - b.sequence)
      .map(copy);
  }

  async list(companyId: string, query: EventQuery): Promise<Page<DomainEvent>> {
    assertLimit(query.limit);
    const ofCompany = this.stored.filter(({ event }) => event.company === companyId);
    const current = query.status ? currentStatuses(ofCompany.map(({ event }) => event)) : null;
    const matching = ofCompany.filter(({ event }) => {
      if (query.type && event.type !== query.type) return false;
      if (query.correlationId && event.correlationId !== query.correlationId) return false;
      if (query.from && event.occurredAt.getTime() < query.from.getTime()) return false;
      if (query.to && event.occurredAt.getTime() >= query.to.getTime()) return false;
      if (query.status) {
        if (event.status !== query.status || event.proposalId === null) return false;
        if (current?.get(event.proposalId) !== query.status) return false;
      }
      return true;
    });
    const page = pageAfter(matching, ({ position }) => [position], query.limit, query.cursor);
    return { items: page.items.map(({ event }) => copy(event)), nextCursor: page.nextCursor };
  }

  /** Every stored event, in append order: for assertions. */
  all(): DomainEvent[] {
    return this.stored.map(({ event }) => copy(event));
  }

  snapshot(): unknown {
    return [...this.stored];
  }

  restore(snapshot: unknown): void {
    this.stored = [...(snapshot as StoredEvent[])];
  }
}

function slotOf(event: DomainEvent): string {
  return `${event.company}\u0000${event.correlationId}\u0000${event.sequence}`;
}

/** Each proposal's status after its latest event. */
function currentStatuses(events: DomainEvent[]): Map<string, ProposalStatus> {
  const latest = new Map<string, DomainEvent>();
  for (const event of events) {
    if (event.proposalId === null || event.status === null) continue;
    const seen = latest.get(event.proposalId);
    if (!seen || seen.sequence < event.sequence) latest.set(event.proposalId, event);
  }
  return new Map([...latest].map(([id, event]) => [id, event.status as ProposalStatus]));
}
