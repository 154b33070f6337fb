import { ConcurrencyConflict } from '@app/domain';

/**
 * Runs a unit of work again when it lost a race (ConcurrencyConflict), so that it re-reads what the
 * winner wrote: either it now succeeds (two first approvals of one merchant creating its pattern) or
 * the domain refuses it for a reason the caller can act on (the proposal was approved meanwhile →
 * invalid_transition). After `attempts` lost races the last conflict propagates (409).
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ConcurrencyConflict) || attempt >= attempts) throw error;
    }
  }
}
