import type { SlackMessage } from '../rendering/slack-message.renderer';
import type { DeliveryResult } from './delivery-result';
import { postBytes } from './http-post';
import { DEFAULT_SEND_TIMEOUT_MS, USER_AGENT } from './webhook-sender';

export interface SlackWebhookSenderOptions {
  /** Per attempt. Default 10 s. */
  timeoutMs?: number;
  userAgent?: string;
}

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

  constructor(options: SlackWebhookSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
    this.userAgent = options.userAgent ?? USER_AGENT;
  }

  async send(request: SlackRequest): Promise<DeliveryResult> {
    const body = Buffer.from(JSON.stringify(request.message), 'utf8');
    const headers = { 'content-type': 'application/json; charset=utf-8', 'user-agent': this.userAgent };
    return postBytes(request.url, body, headers, { timeoutMs: this.timeoutMs, keepErrorCode: true });
  }
}
