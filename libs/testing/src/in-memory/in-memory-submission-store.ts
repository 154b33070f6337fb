import {
  SubmissionStore,
  type IdempotencyRecord,
  type RecordedUse,
  type SubmissionKey,
  type SubmissionOutcome,
  type SubmissionWrite,
  type UnitOfWork,
} from '@app/application';
import type { InMemoryIdempotencyStore } from './in-memory-idempotency-store';

/**
 * SubmissionStore over the in-memory stores: each write a unit of work of its own, as the database
 * runs the one statement as a transaction by itself — all or nothing, and one at a time with the
 * other units, so a concurrent unit that holds the same key is waited for. A used key is answered
 * by what it recorded; an expired one is taken over (the idempotency store's claim rules).
 */
export class InMemorySubmissionStore extends SubmissionStore {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly idempotency: InMemoryIdempotencyStore,
  ) {
    super();
  }

  store(submission: SubmissionWrite, key?: SubmissionKey): Promise<SubmissionOutcome> {
    return this.unitOfWork.run(async (ports) => {
      if (key) {
        const claim = await ports.idempotency.claim(key.record);
        if (claim.outcome !== 'claimed') return claim;
      }
      await ports.events.append(submission.events);
      await ports.proposals.insert(submission.proposal);
      if (submission.receipt) await ports.receipts.save(submission.receipt);
      await ports.notifier.notify(submission.messages);
      if (key) await ports.idempotency.complete(key.record, key.response);
      return { outcome: 'stored' } as const;
    });
  }

  async recorded(record: IdempotencyRecord): Promise<RecordedUse | null> {
    const claim = await this.idempotency.claim(record);
    return claim.outcome === 'claimed' ? null : claim;
  }
}
