import type { WebhookSecret } from '../delivery/webhook-secret';
import type { NotificationTarget } from '../message/notification';

/** A webhook target from the company settings (docs/api.md §5): `{ "kind": "slack" | "webhook", "url" }`. */
export interface ChannelTarget {
  kind: 'slack' | 'webhook';
  /** A credential in its own right for Slack: never logged, never stored in outbox rows. */
  url: string;
}

/** A company's notification settings and its webhook signing key, read at delivery time. */
export interface CompanyChannels {
  reviewChannel: ChannelTarget | null;
  invoicesChannel: ChannelTarget | null;
  /** The agent gateway's callback; `user_thread` notifications go here with the thread in the body. */
  gatewayCallback: ChannelTarget | null;
  /** Signs `webhook` deliveries; a webhook target without one is not sent to. */
  webhookSecret: WebhookSecret | null;
}

/**
 * Reads a company's channel targets and webhook secret. Adapters compose the company settings
 * (persistence) with the secret (vault). Used directly as the Nest injection token.
 */
export abstract class CompanyChannelDirectory {
  /** null when the company is unknown. */
  abstract channelsOf(companyId: string): Promise<CompanyChannels | null>;
}

/** The settings key each target resolves to. */
export const CHANNEL_FOR_TARGET: Readonly<
  Record<NotificationTarget, keyof Pick<CompanyChannels, 'reviewChannel' | 'invoicesChannel' | 'gatewayCallback'>>
> = {
  review: 'reviewChannel',
  invoices: 'invoicesChannel',
  user_thread: 'gatewayCallback',
};
