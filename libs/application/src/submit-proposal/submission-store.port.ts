import type { OutboundMessage, Proposal, ProposalEvent } from '@app/domain';
import type { IdempotencyRecord, RecordedResponse } from '../idempotency/idempotency-store.port';
import type { StoredReceipt } from '../receipts/receipt-store.port';

/** Everything an accepted submission stores. */
export interface SubmissionWrite {
  readonly events: readonly ProposalEvent[];
  readonly proposal: Proposal;
  readonly receipt: StoredReceipt | null;
  /** The notices it causes: outbox rows, delivered after the commit. */
  readonly messages: readonly OutboundMessage[];
}

/** An Idempotency-Key taken as the submission is stored, with the response a retry will get. */
export interface SubmissionKey {
  readonly record: IdempotencyRecord;
  readonly response: RecordedResponse;
}

/**
 * Stores an accepted submission — its events, the proposal, the receipt's bytes and the outbox
 * rows of its notices — all of it or nothing, in one write: over a unit of work's transaction the
 * write joins it; used alone it is atomic by itself.
 *
 * With a `key`, the same write also takes the Idempotency-Key with its response already recorded.
 * When the key has a row already (a completed request's, expired or not), or another unit of work
 * holds it and then commits (the write waits for it, as `IdempotencyStore.claim` does), nothing is
 * stored and `store` returns false: the caller then claims the key the ordinary way, which answers
 * a replay, a conflict or the takeover of an expired key. With a key, a row taken by someone else
 * (the proposal's id, a receipt, an event's chain position) also returns false, since the key may
 * be why; without one it is a ConcurrencyConflict.
 */
export abstract class SubmissionStore {
  abstract store(submission: SubmissionWrite, key?: SubmissionKey): Promise<boolean>;
}
