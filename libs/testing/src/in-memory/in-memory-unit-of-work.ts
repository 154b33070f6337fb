import { UnitOfWork, type TransactionalPorts } from '@app/application';
import type { InMemoryBookedReceipts } from './in-memory-booked-receipts';
import type { InMemoryDailyChecks } from './in-memory-daily-checks';
import type { InMemoryEventStore } from './in-memory-event-store';
import type { InMemoryExecutions } from './in-memory-executions';
import type { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import type { InMemoryNotifier } from './in-memory-notifier';
import type { InMemoryPatternStore } from './in-memory-pattern-store';
import type { InMemoryProposalRepository } from './in-memory-proposal-repository';
import type { InMemoryReceiptStore } from './in-memory-receipt-store';

/** The in-memory adapters a unit of work hands out: every one can be saved and put back. */
export interface InMemoryStores extends TransactionalPorts {
  readonly events: InMemoryEventStore;
  readonly proposals: InMemoryProposalRepository;
  readonly patterns: InMemoryPatternStore;
  readonly notifier: InMemoryNotifier;
  readonly receipts: InMemoryReceiptStore;
  readonly idempotency: InMemoryIdempotencyStore;
  readonly executions: InMemoryExecutions;
  readonly bookedReceipts: InMemoryBookedReceipts;
  readonly dailyChecks: InMemoryDailyChecks;
}

/**
 * Runs units of work one at a time over the in-memory stores, and puts every store back as it was
 * when the work throws: all or nothing, like the database transaction of the TypeORM adapter. One
 * at a time is also how a concurrent unit with the same idempotency key waits for the first.
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
    const stores = Object.values(this.stores) as InMemoryStores[keyof InMemoryStores][];
    const snapshots = stores.map((store) => store.snapshot());
    try {
      return await work(this.stores);
    } catch (error) {
      stores.forEach((store, i) => store.restore(snapshots[i]));
      throw error;
    }
  }
}
