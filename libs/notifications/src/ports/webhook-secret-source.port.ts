import type { WebhookSecret } from '../delivery/webhook-secret';

/** Where a company's webhook signing key comes from. Used directly as the Nest injection token. */
export abstract class WebhookSecretSource {
  /** null when the company has none: its webhook targets are then not sent to. */
  abstract secretFor(companyId: string): Promise<WebhookSecret | null>;
}
