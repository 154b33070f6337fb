/** Whose key it is: keys are scoped to company + actor (docs/api.md §1). */
export interface IdempotencyScope {
  readonly companyId: string;
  readonly actor: string;
  readonly key: string;
}

/** The response a request produced, kept so that a retry gets exactly the same one. */
export interface RecordedResponse {
  readonly status: number;
  /** JSON-safe. */
  readonly body: unknown;
}

/** One use of a key: the request's fingerprint and how long the outcome is kept. */
export interface IdempotencyRecord {
  readonly scope: IdempotencyScope;
  /** Lowercase hex SHA-256 of the canonical request (`requestFingerprint`). */
  readonly requestHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export type IdempotencyClaim =
  /** Nobody used the key (or its use expired): this request goes ahead and must `complete` it. */
  | { readonly outcome: 'claimed' }
  /** The same request already completed: answer its response again. */
  | { readonly outcome: 'replay'; readonly response: RecordedResponse }
  /** The key was used for a different request. */
  | { readonly outcome: 'conflict' };

/**
 * Idempotency keys and the responses they produced. Both methods join the unit of work they are
 * called in: the key, the effects of the request and its recorded response commit together or not at
 * all, so a request that fails leaves the key unused and a retry runs it again.
 *
 * `claim` takes the key for the current unit of work. While another unit holds the same key
 * uncommitted, `claim` waits for it (PostgreSQL: the second insert of one primary key blocks on the
 * first); once the holder commits, the waiter sees its recorded response (`replay` or `conflict`),
 * and when the holder rolls back the waiter claims the key itself. So of two concurrent requests
 * with one key exactly one executes. A key whose `expiresAt` has passed counts as unused.
 */
export abstract class IdempotencyStore {
  abstract claim(record: IdempotencyRecord): Promise<IdempotencyClaim>;

  /** Records the response of the request that claimed `record` (same unit of work). */
  abstract complete(record: IdempotencyRecord, response: RecordedResponse): Promise<void>;

  /**
   * Deletes up to `limit` keys whose `expiresAt` is at or before `now` (docs/api.md §1 keeps a key
   * 24 h), oldest first, and says how many went. Keys another unit of work holds are skipped.
   */
  abstract purgeExpired(now: Date, limit: number): Promise<number>;
}
