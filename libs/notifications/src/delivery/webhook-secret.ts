import { createHmac, timingSafeEqual } from 'node:crypto';

const REDACTED = '[redacted]';

/**
 * A company's webhook signing key (HMAC-SHA256). The key lives in a private field and the object
 * renders as `[redacted]` in strings, JSON and `util.inspect`, so logging a structure that holds
 * one cannot leak it.
 */
export class WebhookSecret {
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** A string secret is used as its UTF-8 bytes. */
  static from(value: string | Uint8Array): WebhookSecret {
    const key = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
    if (key.length === 0) throw new Error('a webhook secret must not be empty');
    return new WebhookSecret(key);
  }

  /** Hex HMAC-SHA256 of the exact bytes given. */
  hmacSha256Hex(data: Uint8Array | string): string {
    return createHmac('sha256', this.#key).update(data).digest('hex');
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `WebhookSecret(${REDACTED})`;
  }
}

export const SIGNATURE_HEADER = 'x-signature';
export const DELIVERY_ID_HEADER = 'x-delivery-id';
export const TIMESTAMP_HEADER = 'x-timestamp';
export const ATTEMPT_HEADER = 'x-delivery-attempt';

/** The `X-Signature` value for a raw body: `sha256=<hex HMAC-SHA256 of the body bytes>`. */
export function signWebhookBody(rawBody: Uint8Array | string, secret: WebhookSecret): string {
  return `sha256=${secret.hmacSha256Hex(rawBody)}`;
}

/**
 * Checks an `X-Signature` header against the raw body bytes as received (before any JSON parsing),
 * in constant time. For receivers such as the gateway, and for tests.
 */
export function verifyWebhookSignature(
  rawBody: Uint8Array | string,
  signatureHeader: string | undefined,
  secret: WebhookSecret,
): boolean {
  if (!signatureHeader?.startsWith('sha256=')) return false;
  const given = Buffer.from(signatureHeader.slice('sha256='.length), 'hex');
  const expected = Buffer.from(secret.hmacSha256Hex(rawBody), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
