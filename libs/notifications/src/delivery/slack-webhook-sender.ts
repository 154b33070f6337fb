import type { SlackMessage } from '../rendering/slack-message.renderer';
import type { DeliveryResult } from './delivery-result';
import type { Agent } from 'undici';
import { postBytes } from './http-post';
import { deliveryAgent } from './public-egress';
import { DEFAULT_SEND_TIMEOUT_MS, USER_AGENT, type WebhookSenderOptions } from './webhook-sender';

/** Per attempt timeout (default 10 s), user agent, and the same target rule as WebhookSender's. */
export type SlackWebhookSenderOptions = WebhookSenderOptions;

export interface SlackRequest {
  /** The incoming-webhook URL: a credential, never logged. */
  url: string;
  message: SlackMessage;
}

/**
 * Slack incoming webhooks: POST `{ text, blocks }`. Slack answers 200 `ok`, or an error status with
 * a short code in the body (`invalid_payload`, `no_service`, `channel_is_archived`), which is kept in
 * the error. 429 honours `Retry-After`.
 */
export class SlackWebhookSender {
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly publicOnly: boolean;
  private readonly agent: Agent;

  constructor(options: SlackWebhookSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
    this.userAgent = options.userAgent ?? USER_AGENT;
    this.publicOnly = !(options.allowInternalTargets ?? false);
    this.agent = deliveryAgent({ publicOnly: this.publicOnly, resolve: options.resolve });
  }

  /** Closes the connections kept open to Slack. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  async send(request: SlackRequest): Promise<DeliveryResult> {
    const body = Buffer.from(JSON.stringify(request.message), 'utf8');
    const headers = { 'content-type': 'application/json; charset=utf-8', 'user-agent': this.userAgent };
    return postBytes(request.url, body, headers, {
      timeoutMs: this.timeoutMs,
      keepErrorCode: true,
      dispatcher: this.agent,
      publicOnly: this.publicOnly,
    });
  }
}
