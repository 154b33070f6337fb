import { EventStore } from './event-store.port';
import { Notifier } from './notifier.port';
import { PatternStore } from './pattern-store.port';
import { ProposalRepository } from './proposal-repository.port';

/** The ports whose writes must commit together: events, the proposal read model, patterns, notifications. */
export interface TransactionalPorts {
  readonly events: EventStore;
  readonly proposals: ProposalRepository;
  readonly patterns: PatternStore;
  readonly notifier: Notifier;
}

/**
 * Runs `work` in one transaction: everything it wrote through `ports` commits when it resolves and
 * nothing does when it throws (the error is rethrown). A use case that stores events, updates the
 * proposal and enqueues notifications does all three through the ports it is handed here.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T>;
}
