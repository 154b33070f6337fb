import {
  type ChatThread,
  type Notification,
  type NotificationKind,
  type NotificationTarget,
  threadOf,
} from '../message/notification';
import { renderText } from './notification-text';

/**
 * The JSON body of a signed webhook delivery (to the agent gateway, or to any `webhook` channel).
 * Its raw bytes are what `X-Signature` signs; `id` equals `X-Delivery-Id` and is stable across
 * redeliveries, so receivers de-duplicate on it. `sentAt` is inside the signed body so a receiver
 * can refuse stale replays (e.g. older than 5 minutes).
 */
export interface WebhookEnvelope {
  id: string;
  type: NotificationKind;
  companyId: string;
  target: NotificationTarget;
  /** For `user_thread`: the chat thread to answer in; null otherwise or when the proposal had none. */
  thread: ChatThread | null;
  /** A ready-to-post plain-text summary. */
  text: string;
  /** The kind's payload as stored (contract conventions: camelCase, decimal-string money). */
  data: Notification['payload'];
  /** 1 on the first attempt. */
  attempt: number;
  /** When the notification was created (RFC 3339). */
  createdAt: string;
  /** When this attempt was sent (RFC 3339). */
  sentAt: string;
}

export interface EnvelopeSource {
  id: string;
  attempts: number;
  createdAt: Date;
}

export function renderWebhookEnvelope(message: Notification & EnvelopeSource, sentAt: Date): WebhookEnvelope {
  return {
    id: message.id,
    type: message.kind,
    companyId: message.companyId,
    target: message.target,
    thread: message.target === 'user_thread' ? (threadOf(message) ?? null) : null,
    text: renderText(message),
    data: message.payload,
    attempt: message.attempts,
    createdAt: message.createdAt.toISOString(),
    sentAt: sentAt.toISOString(),
  };
}
