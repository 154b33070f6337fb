import type { Notification } from './notification';

/**
 * One row of the durable outbox. Written in the same transaction as the events that caused it and
 * delivered later, at least once, by the OutboxDispatcher.
 *
 * Status is derived, never stored separately:
 * - pending:   deliveredAt = null, deadAt = null (due when nextAttemptAt ≤ now)
 * - delivered: deliveredAt ≠ null
 * - dead:      deadAt ≠ null (gave up; kept for operators, who can requeue it)
 */
export type OutboxMessage = Notification & {
  /** Also the delivery id (`X-Delivery-Id`) receivers de-duplicate on. */
  id: string;
  /** Delivery attempts started so far, counted when a row is claimed. */
  attempts: number;
  /** When the row is next due; while claimed, the end of the claim's lease. */
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  deadAt: Date | null;
  /** The last failure, without secrets or URLs; null until one happens. */
  lastError: string | null;
  createdAt: Date;
};

/** What a producer enqueues; the repository fills in the delivery bookkeeping. */
export type NewOutboxMessage = Notification & {
  id: string;
  createdAt: Date;
  /** First due time; defaults to createdAt. */
  nextAttemptAt?: Date;
};

export type OutboxStatus = 'pending' | 'delivered' | 'dead';

export function outboxStatus(message: Pick<OutboxMessage, 'deliveredAt' | 'deadAt'>): OutboxStatus {
  if (message.deliveredAt) return 'delivered';
  if (message.deadAt) return 'dead';
  return 'pending';
}
