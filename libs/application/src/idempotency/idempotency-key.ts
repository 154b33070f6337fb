import { invalidField } from '@app/domain';

/** How long a key and its response are kept (docs/api.md §1). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/**
 * The `Idempotency-Key` header: absent → no idempotency; otherwise 1–255 printable ASCII
 * characters (space to tilde), taken as sent (no trimming: the client's key is its key).
 */
export function parseIdempotencyKey(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || !PRINTABLE_ASCII.test(raw)) {
    invalidField(IDEMPOTENCY_KEY_HEADER, 'must be 1 to 255 printable ASCII characters');
  }
  return raw;
}
