import { TransportError } from '../http/transport-error';
import { sleep } from '../http/sleep';

/**
 * Sends a create that must not happen twice. When its outcome is unknown (timeout, dropped
 * connection, 5xx) the provider may have carried it out: after `settleMs` the result is looked up,
 * and returned when found. When it is not found the original (transient) error is thrown and the
 * create is NOT sent again here: the caller's reconciliation (the executor looks the booking up by
 * reference before any retry) decides later, when the provider has had time to settle.
 */
export async function createOnce<T>(
  create: () => Promise<T>,
  lookup: () => Promise<T | null>,
  settleMs: number,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!(error instanceof TransportError && error.outcomeUnknown)) {
      throw error;
    }
    await sleep(settleMs);
    const found = await lookup();
    if (found !== null) {
      return found;
    }
    throw error;
  }
}
