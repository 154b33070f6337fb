import { SubmissionStore, type SubmissionKey, type SubmissionWrite, type UnitOfWork } from '@app/application';
import type { InMemoryEventStore } from './in-memory-event-store';
import type { InMemoryIdempotencyStore } from './in-memory-idempotency-store';
import type { InMemoryNotifier } from './in-memory-notifier';
import type { InMemoryProposalRepository } from './in-memory-proposal-repository';
import type { InMemoryReceiptStore } from './in-memory-receipt-store';
import type { Snapshottable } from './snapshottable';

interface SubmissionStores {
  readonly events: InMemoryEventStore;
  readonly proposals: InMemoryProposalRepository;
  readonly receipts: InMemoryReceiptStore;
  readonly notifier: InMemoryNotifier;
  readonly idempotency: InMemoryIdempotencyStore;
}

/**
 * SubmissionStore over the in-memory stores, as a unit of work hands it out: the unit puts every
 * store back when its work throws. It holds nothing of its own.
 */
export class InMemorySubmissionStore extends SubmissionStore implements Snapshottable {
  constructor(private readonly stores: SubmissionStores) {
    super();
  }

  async store(submission: SubmissionWrite, key?: SubmissionKey): Promise<boolean> {
    const { events, proposals, receipts, notifier, idempotency } = this.stores;
    if (key && idempotency.has(key.record)) return false;
    await events.append(submission.events);
    await proposals.insert(submission.proposal);
    if (submission.receipt) await receipts.save(submission.receipt);
    await notifier.notify(submission.messages);
    if (key) await idempotency.complete(key.record, key.response);
    return true;
  }

  snapshot(): unknown {
    return null;
  }

  restore(): void {}
}

/**
 * The SubmissionStore used outside any unit of work: each write a unit of its own, as the database
 * runs the one statement as a transaction by itself — all or nothing, and one at a time with the
 * other units, so a concurrent unit that holds the same key is waited for.
 */
export class StandaloneInMemorySubmissionStore extends SubmissionStore {
  constructor(private readonly unitOfWork: UnitOfWork) {
    super();
  }

  store(submission: SubmissionWrite, key?: SubmissionKey): Promise<boolean> {
    return this.unitOfWork.run((ports) => ports.submissions.store(submission, key));
  }
}
