/** Who an outbound message is for (docs/api.md §4.5). */
export const NOTIFICATION_TARGETS = ['review', 'user_thread', 'invoices'] as const;
export type NotificationTarget = (typeof NOTIFICATION_TARGETS)[number];

/**
 * What is said. The same kinds as @app/notifications' typed payloads, whose adapter
 * (OutboxNotifier) binds to this port:
 * - `proposal_needs_review`, `execution_failed`, `provider_reauthorisation_needed` → `review`;
 * - `proposal_auto_approved` (with the confidence as a percentage), `proposal_rejected` (with its
 *   reason) → `user_thread`, the requesting user's thread through the gateway callback;
 * - `daily_check` → `invoices`.
 */
export const NOTIFICATION_KINDS = [
  'proposal_needs_review',
  'proposal_auto_approved',
  'proposal_rejected',
  'execution_failed',
  'daily_check',
  'provider_reauthorisation_needed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * A message to deliver. `payload` is a JSON-safe object (money as decimal strings, instants as
 * RFC 3339 strings); its shape per kind is defined by @app/notifications.
 */
export interface OutboundMessage {
  readonly companyId: string;
  readonly target: NotificationTarget;
  readonly kind: NotificationKind;
  readonly payload: object;
}

/**
 * Outbound notifications through the durable outbox: messages handed over in the same unit of work
 * as the events that cause them are delivered at least once after it commits, and never if it
 * rolls back.
 */
export abstract class Notifier {
  /** Enqueues the messages; returns their outbox ids (one per message, in order). */
  abstract notify(messages: readonly OutboundMessage[]): Promise<string[]>;
}
