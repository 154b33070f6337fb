/**
 * The outcome of one delivery attempt. Senders never throw: every failure is described here,
 * without URLs, secrets or bodies, so that it can be stored as `lastError` and logged.
 *
 * `permanent` marks failures that repeating the same request will not fix by itself (a 4xx other
 * than 408/425/429, a malformed channel setting). The dispatcher still retries them, at the capped
 * backoff, because a receiver or a setting being fixed makes the next attempt succeed, until the
 * dead-letter policy gives up.
 *
 * `undeliverable` marks a message that has nowhere to go: its company is gone, or has no channel
 * for the message's target. Nothing will be fixed for it (a channel configured later is for later
 * messages), so the dispatcher marks it failed permanently at once instead of retrying it.
 */
export type DeliveryResult =
  | { ok: true; status: number }
  | {
      ok: false;
      permanent: boolean;
      undeliverable?: true;
      error: string;
      status?: number;
      retryAfterMs?: number;
    };

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

export const undeliverable = (error: string): DeliveryResult => ({
  ok: false,
  permanent: true,
  undeliverable: true,
  error,
});
