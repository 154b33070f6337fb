import { TransportError } from '../http/transport-error';
import { sleep } from '../http/sleep';

/**
 * How long to wait before the lookups that follow a create whose outcome is unknown: the first
 * after `settleMs`, each further one after twice the pause before it (2 s, 4 s, 8 s by default: 14 s
 * in all, longer than a provider call's timeout, so a create still running at the provider when we
 * gave up has committed by the last lookup).
 */
export interface SettlePlan {
  readonly settleMs: number;
  /** Lookups before giving up; at least 1. */
  readonly lookups?: number;
}

/** Lookups after an unknown outcome, unless the plan names another number. */
export const DEFAULT_SETTLE_LOOKUPS = 3;

/**
 * Sends a create that must not happen twice. When its outcome is unknown (timeout, dropped
 * connection, 5xx) the provider may have carried it out: it is looked up after `settleMs`, and again
 * with a doubled pause while it is not found (a search can miss a record the provider has just
 * committed), and returned when found. When none of the lookups finds it the original (transient)
 * error is thrown and the create is NOT sent again here: the caller's reconciliation (the executor
 * looks the booking up by reference, twice, before any retry books) decides later.
 */
export async function createOnce<T>(
  create: () => Promise<T>,
  lookup: () => Promise<T | null>,
  plan: number | SettlePlan,
): Promise<T> {
  const { settleMs, lookups = DEFAULT_SETTLE_LOOKUPS } = typeof plan === 'number' ? { settleMs: plan } : plan;
  try {
    return await create();
  } catch (error) {
    if (!(error instanceof TransportError && error.outcomeUnknown)) {
      throw error;
    }
    let pause = settleMs;
    for (let attempt = 0; attempt < Math.max(1, lookups); attempt++) {
      await sleep(pause);
      pause *= 2;
      // A lookup that fails is a miss: the next one (or the caller's reconciliation) asks again.
      const found = await lookup().catch(() => null);
      if (found !== null) {
        return found;
      }
    }
    throw error;
  }
}
