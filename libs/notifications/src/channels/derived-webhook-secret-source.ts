import { hkdfSync } from 'node:crypto';
import { WebhookSecret } from '../delivery/webhook-secret';
import { WebhookSecretSource } from '../ports/webhook-secret-source.port';

const SALT = 'accounting-api/webhook-secret/v1';

/**
 * The text of a company's webhook secret: 64 hex characters, HKDF-SHA256 of a master key with the
 * company id as context. For operators who hand it to the gateway (a CLI prints it); it is never
 * logged by this library. The signing key is the UTF-8 bytes of this text.
 */
export function deriveWebhookSecretText(masterKey: Uint8Array, companyId: string): string {
  return Buffer.from(hkdfSync('sha256', masterKey, SALT, `company:${companyId}`, 32)).toString('hex');
}

/**
 * Per-company webhook secrets derived from one master key: nothing to store per company, distinct
 * and independent secrets per company, and rotating the master key rotates them all.
 */
export class DerivedWebhookSecretSource extends WebhookSecretSource {
  readonly #masterKey: Buffer;

  constructor(masterKey: Uint8Array) {
    super();
    if (masterKey.length < 32) throw new RangeError('the webhook master key must be at least 32 bytes');
    this.#masterKey = Buffer.from(masterKey);
  }

  override async secretFor(companyId: string): Promise<WebhookSecret> {
    return WebhookSecret.from(deriveWebhookSecretText(this.#masterKey, companyId));
  }
}
