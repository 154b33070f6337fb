import { TransactionalPorts, UnitOfWork } from '@app/domain';
import { InMemoryEventStore } from './in-memory-event-store';
import { InMemoryNotifier } from './in-memory-notifier';
import { InMemoryPatternStore } from './in-memory-pattern-store';
import { InMemoryProposalRepository } from './in-memory-proposal-repository';

export interface InMemoryStores {
  readonly events: InMemoryEventStore;
  readonly proposals: InMemoryProposalRepository;
  readonly patterns: InMemoryPatternStore;
  readonly notifier: InMemoryNotifier;
}

/**
 * Runs units of work one at a time over the in-memory stores, and puts every store back as it was
 * when the work throws: all or nothing, like the database transaction of the TypeORM adapter.
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly stores: InMemoryStores) {
    super();
  }

  run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    const result = this.queue.then(() => this.runNow(work));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async runNow<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    const stores = [this.stores.events, this.stores.proposals, this.stores.patterns, this.stores.notifier];
    const snapshots = stores.map((store) => store.snapshot());
    try {
      return await work(this.stores);
    } catch (error) {
      stores.forEach((store, i) => store.restore(snapshots[i]));
      throw error;
    }
  }
}
