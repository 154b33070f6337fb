import type { OutboundMessage, Proposal, ProposalEvent } from '@app/domain';
import type { IdempotencyClaim, IdempotencyRecord, RecordedResponse } from '../idempotency/idempotency-store.port';
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

/** What an earlier use of a key recorded: the same request (`replay`) or another one (`conflict`). */
export type RecordedUse = Exclude<IdempotencyClaim, { readonly outcome: 'claimed' }>;

/** What `store` did: stored the submission, or stored nothing because the key was used already. */
export type SubmissionOutcome = { readonly outcome: 'stored' } | RecordedUse;

/**
 * The one place a submission is written: its events, the proposal, the receipt's bytes and the
 * outbox rows of its notices — all of it or nothing, in one atomic write.
 *
 * With a `key`, the same write takes the Idempotency-Key with its response already recorded. A key
 * that another request holds uncommitted is waited for. A key that has a live row stores nothing and
 * answers what that row recorded (`replay` for the same request, `conflict` for another); an expired
 * row is taken over. A row of the submission that is already stored (the proposal's id, a receipt,
 * an event's chain position) — and no used key to explain it — is a ConcurrencyConflict.
 */
export abstract class SubmissionStore {
  abstract store(submission: SubmissionWrite, key?: SubmissionKey): Promise<SubmissionOutcome>;

  /**
   * What a key's earlier use recorded, or null when the key is unused or expired: how a submission
   * the domain refuses still answers a retry of a request that was accepted.
   */
  abstract recorded(record: IdempotencyRecord): Promise<RecordedUse | null>;
}
