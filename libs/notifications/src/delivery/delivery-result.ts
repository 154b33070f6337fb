/**
 * The outcome of one delivery attempt. Senders never throw: every failure is described here,
 * without URLs, secrets or bodies, so that it can be stored as `lastError` and logged.
 *
 * `permanent` marks failures that repeating the same request will not fix by itself (a 4xx other
 * than 408/425/429, a missing or malformed channel setting). The dispatcher still retries them, at
 * the capped backoff, because an admin fixing the company settings makes the next attempt succeed;
 * they are never dropped.
 */
export type DeliveryResult =
  | { ok: true; status: number }
  | { ok: false; permanent: boolean; error: string; status?: number; retryAfterMs?: number };

export const delivered = (status: number): DeliveryResult => ({ ok: true, status });

export const transientFailure = (
  error: string,
  extra: { status?: number; retryAfterMs?: number } = {},
): DeliveryResult => ({
  ok: false,
  permanent: false,
  error,
  ...extra,
});

export const permanentFailure = (error: string, status?: number): DeliveryResult => ({
  ok: false,
  permanent: true,
  error,
  ...(status === undefined ? {} : { status }),
});
