import type { Agent } from 'undici';
import type { WebhookEnvelope } from '../rendering/webhook-envelope.renderer';
import type { DeliveryResult } from './delivery-result';
import { postBytes } from './http-post';
import { deliveryAgent, type Resolver } from './public-egress';
import {
  ATTEMPT_HEADER,
  DELIVERY_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type WebhookSecret,
  signWebhookBody,
} from './webhook-secret';

export interface WebhookSenderOptions {
  /** Per attempt, connect to last response byte. Default 10 s. */
  timeoutMs?: number;
  userAgent?: string;
  /**
   * Deliver to loopback, private and other internal addresses too (development, tests). Default
   * false: a target whose address, literal or resolved, is not public is refused.
   */
  allowInternalTargets?: boolean;
  /** How host names are resolved (tests inject one). Default: the system resolver. */
  resolve?: Resolver;
}

export interface WebhookRequest {
  url: string;
  envelope: WebhookEnvelope;
  secret: WebhookSecret;
}

export const DEFAULT_SEND_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'accounting-api-notifications/1';

/**
 * Signed JSON webhooks. The body is serialised once and those exact bytes are both signed and
 * sent:
 *
 * - `Content-Type: application/json; charset=utf-8`
 * - `X-Signature: sha256=<hex HMAC-SHA256(company secret, raw body bytes)>`
 * - `X-Delivery-Id: <outbox id>` — stable across retries; receivers de-duplicate on it
 * - `X-Delivery-Attempt: <n>` (1-based)
 * - `X-Timestamp: <unix seconds of sentAt>` — also inside the signed body as `sentAt`
 *
 * 2xx is delivered; see `postBytes` for how everything else is classified.
 */
export class WebhookSender {
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly publicOnly: boolean;
  private readonly agent: Agent;

  constructor(options: WebhookSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
    this.userAgent = options.userAgent ?? USER_AGENT;
    this.publicOnly = !(options.allowInternalTargets ?? false);
    this.agent = deliveryAgent({ publicOnly: this.publicOnly, resolve: options.resolve });
  }

  /** Closes the connections kept open to receivers. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  async send(request: WebhookRequest): Promise<DeliveryResult> {
    const { envelope, secret } = request;
    const body = Buffer.from(JSON.stringify(envelope), 'utf8');
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': this.userAgent,
      [SIGNATURE_HEADER]: signWebhookBody(body, secret),
      [DELIVERY_ID_HEADER]: envelope.id,
      [ATTEMPT_HEADER]: String(envelope.attempt),
      [TIMESTAMP_HEADER]: String(Math.floor(Date.parse(envelope.sentAt) / 1000)),
    };
    return postBytes(request.url, body, headers, {
      timeoutMs: this.timeoutMs,
      dispatcher: this.agent,
      publicOnly: this.publicOnly,
    });
  }
}
