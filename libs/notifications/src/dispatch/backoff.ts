/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And Jitter"):
 * after the n-th failed attempt the next one waits a uniformly random time in
 * [0, min(cap, base · 2^(n−1))), raised to a small floor so that a retry is never immediate.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** Lower bound of every delay. */
  minMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, capMs: 30 * 60_000, minMs: 500 };

/** The upper bound of the delay after `attempt` (1-based) failed attempts. */
export function backoffCeiling(attempt: number, policy: BackoffPolicy): number {
  const exponent = Math.max(0, attempt - 1);
  return Math.max(policy.minMs, Math.min(policy.capMs, policy.baseMs * 2 ** exponent));
}

/** A jittered delay in [minMs, ceiling]; `random` returns [0, 1) like Math.random. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.max(policy.minMs, Math.floor(r * backoffCeiling(attempt, policy)));
}

/**
 * When the dispatcher stops trying: a message is dead once it has failed at least `minAttempts`
 * times AND is older than `afterMs`. Both must hold, so a message that waited out an outage still
 * gets its attempts, and a flapping receiver still gets a day. Dead rows stay in the outbox for
 * operators (`findDead`, `requeue`); nothing is deleted.
 */
export interface DeadLetterPolicy {
  afterMs: number;
  minAttempts: number;
}

export const DEFAULT_DEAD_LETTER: DeadLetterPolicy = { afterMs: 24 * 60 * 60_000, minAttempts: 10 };

export function isExhausted(attempts: number, createdAt: Date, now: Date, policy: DeadLetterPolicy): boolean {
  return attempts >= policy.minAttempts && now.getTime() - createdAt.getTime() >= policy.afterMs;
}
