import type { NewOutboxMessage, OutboxMessage } from '../message/outbox-message';

/**
 * The durable outbox. Used directly as the Nest injection token.
 *
 * ## Contract every adapter meets (the shared suite `describeOutboxRepositoryContract` checks it)
 *
 * Storage (PostgreSQL, table `notification_outbox`):
 *
 * | column          | type          | notes                                                      |
 * |-----------------|---------------|------------------------------------------------------------|
 * | id              | text PK       | caller-supplied (UUIDv7); the delivery id                  |
 * | company_id      | text not null |                                                            |
 * | target          | text not null | `review` \| `user_thread` \| `invoices`                    |
 * | kind            | text not null | a NotificationKind                                         |
 * | payload         | jsonb not null|                                                            |
 * | attempts        | int not null default 0                                                     |
 * | next_attempt_at | timestamptz not null                                                       |
 * | delivered_at    | timestamptz null                                                           |
 * | dead_at         | timestamptz null                                                           |
 * | last_error      | text null     |                                                            |
 * | created_at      | timestamptz not null                                                       |
 *
 * Index: `(next_attempt_at) WHERE delivered_at IS NULL AND dead_at IS NULL` (partial), plus
 * `(dead_at) WHERE dead_at IS NOT NULL` for operators.
 *
 * - `enqueue` inserts rows with `attempts = 0`, `next_attempt_at = nextAttemptAt ?? createdAt`,
 *   joins the caller's ambient transaction (so rows commit with the events that caused them), and
 *   ignores an id that already exists (`ON CONFLICT (id) DO NOTHING`), so replays are harmless.
 * - `claimDue(now, limit, leaseUntil)` atomically selects up to `limit` pending rows with
 *   `next_attempt_at <= now`, oldest `next_attempt_at` first (then `created_at`, `id`), locking
 *   them with `FOR UPDATE SKIP LOCKED` so concurrent dispatchers get disjoint rows, and in the same
 *   statement sets `next_attempt_at = leaseUntil` and `attempts = attempts + 1`; it returns the
 *   updated rows. The lease is what makes a crashed dispatcher's rows come back: nobody has to
 *   release them, they simply become due again at `leaseUntil`. Counting the attempt at claim time
 *   means a message that crashes its dispatcher still ages towards the dead letter.
 *   ```sql
 *   UPDATE notification_outbox o SET attempts = o.attempts + 1, next_attempt_at = $leaseUntil
 *    WHERE o.id IN (SELECT id FROM notification_outbox
 *                    WHERE delivered_at IS NULL AND dead_at IS NULL AND next_attempt_at <= $now
 *                    ORDER BY next_attempt_at, created_at, id
 *                    LIMIT $limit FOR UPDATE SKIP LOCKED)
 *   RETURNING o.*
 *   ```
 * - `renew(claims, leaseUntil)` extends the leases of claims still held to `leaseUntil`: a held
 *   claim is a pending row whose `attempts` is still the claim's attempt. A dispatcher renews its
 *   rows while it delivers them, so the lease can be short (a killed instance's rows come back
 *   within seconds) while a slow receiver keeps its claim however long the send takes. A claim taken
 *   over (its lease ran out and another dispatcher claimed the row) is not renewed. Returns how
 *   many were still held; one statement.
 *   ```sql
 *   UPDATE notification_outbox o SET next_attempt_at = $leaseUntil
 *     FROM unnest($ids::text[], $attempts::int[]) AS held (id, attempts)
 *    WHERE o.id = held.id AND o.attempts = held.attempts AND o.delivered_at IS NULL AND o.dead_at IS NULL
 *   ```
 * - `markDelivered(deliveries)` sets each row's `delivered_at = at` where it is still null, all in
 *   one statement (idempotent; a delivery by a worker whose lease ran out is still a delivery).
 *   Clears nothing else. A dispatcher records a whole pass's deliveries at once.
 * - `markFailed(id, attempt, error, nextAttemptAt)` and `markDead(id, attempt, error, at)` are
 *   fenced by the attempt number returned by the claim: they change the row only
 *   `WHERE id = $id AND attempts = $attempt AND delivered_at IS NULL AND dead_at IS NULL`. A worker
 *   whose lease expired and whose row was re-claimed therefore cannot overwrite the newer claim.
 *   Both return whether they changed the row.
 * - `findDead(limit)` lists dead rows, newest `dead_at` first; `requeue(id, at)` turns a dead row
 *   pending again (`dead_at = null, next_attempt_at = at, attempts = 0`, last_error kept, so the
 *   dead-letter policy grants it its minimum attempts again) and says whether it did.
 * - No method ever deletes a row. Delivered rows may be purged by a retention job outside this
 *   port; pending and dead rows never are.
 */
/** A claim a dispatcher holds: the row and the attempt its claim counted (the fence). */
export interface HeldClaim {
  readonly id: string;
  readonly attempt: number;
}

/** A message delivered at `at`, for `markDelivered`. */
export interface Delivery {
  readonly id: string;
  readonly at: Date;
}

export abstract class OutboxRepository {
  abstract enqueue(messages: readonly NewOutboxMessage[]): Promise<void>;

  abstract claimDue(now: Date, limit: number, leaseUntil: Date): Promise<OutboxMessage[]>;

  abstract renew(claims: readonly HeldClaim[], leaseUntil: Date): Promise<number>;

  abstract markDelivered(deliveries: readonly Delivery[]): Promise<void>;

  abstract markFailed(id: string, attempt: number, error: string, nextAttemptAt: Date): Promise<boolean>;

  abstract markDead(id: string, attempt: number, error: string, at: Date): Promise<boolean>;

  /** One company's messages, newest first, in every state (the web console's Messages page). */
  abstract listRecent(companyId: string, limit: number): Promise<OutboxMessage[]>;

  abstract findDead(limit: number): Promise<OutboxMessage[]>;

  abstract requeue(id: string, at: Date): Promise<boolean>;
}
