import type { ProviderKind } from '@app/domain';
import { SharedRequestSlots, SharedSlotUnavailable, type SlotHold } from '../ports/shared-request-slots.port';
import { RequestSlots, type SlotPriority } from './request-slots';
import { sleep } from './sleep';
import { TransportError } from './transport-error';

export interface RequestTurnsOptions {
  readonly provider: ProviderKind;
  /** The shared slot's name: one per application at the provider (e.g. `fiken:<client id>`). */
  readonly name: string;
  /** Requests in flight at once from this process when no shared slot is given. */
  readonly localLimit: number;
  /** At least this long between two request starts (across instances with a shared slot), ms. */
  readonly paceMs: number;
  /** The slot every instance shares; without it the limit and the pace are this process's alone. */
  readonly shared?: SharedRequestSlots;
  /** How long background work waits before it asks for a taken shared slot again, ms. Default: the pace, at least 50. */
  readonly backgroundRetryMs?: number;
}

const NOT_TAKEN = Symbol('not taken');

/**
 * Whose turn it is to send the next request to a provider that allows one at a time.
 *
 * In this process a `RequestSlots` line picks the next task (urgent before background, each FIFO);
 * that task then takes the shared slot (`SharedRequestSlots`), so the limit holds across every
 * instance. The slot is kept until `paceMs` after the request started — the request's answer is
 * handed back at once — so no two starts anywhere are closer than the pace. A background task that
 * finds the shared slot taken (or wanted by a booking elsewhere) gives its local place up, so that
 * this process's bookings pass, and asks again later.
 */
export class RequestTurns {
  private readonly local: RequestSlots;
  private readonly backgroundRetryMs: number;

  constructor(private readonly options: RequestTurnsOptions) {
    if (!Number.isInteger(options.paceMs) || options.paceMs < 0)
      throw new RangeError('the pace must be an integer ≥ 0');
    // With a shared slot, one request at a time is all the slot admits: a second local one would only wait.
    this.local = new RequestSlots(options.shared ? 1 : options.localLimit);
    this.backgroundRetryMs = options.backgroundRetryMs ?? Math.max(50, options.paceMs);
  }

  async run<T>(task: () => Promise<T>, priority: SlotPriority = 'urgent'): Promise<T> {
    for (;;) {
      const outcome = await this.turn(task, priority);
      if (outcome !== NOT_TAKEN) return outcome;
      await sleep(this.backgroundRetryMs);
    }
  }

  /** One try: the task's result, or NOT_TAKEN when background work found the shared slot taken. */
  private turn<T>(task: () => Promise<T>, priority: SlotPriority): Promise<T | typeof NOT_TAKEN> {
    return new Promise<T | typeof NOT_TAKEN>((resolve, reject) => {
      this.local
        .run(async () => {
          let hold: SlotHold | null = null;
          if (this.options.shared) {
            try {
              hold = await this.options.shared.acquire(this.options.name, priority);
            } catch (error) {
              reject(this.unavailable(error));
              return;
            }
            if (!hold) {
              resolve(NOT_TAKEN);
              return;
            }
          }
          const startedAt = Date.now();
          try {
            resolve(await task());
          } catch (error) {
            reject(error);
          } finally {
            // The answer is already on its way; the slot stays taken until the pace has passed.
            await sleep(startedAt + this.options.paceMs - Date.now());
            await hold?.release();
          }
        }, priority)
        .catch(reject);
    });
  }

  private unavailable(error: unknown): unknown {
    if (!(error instanceof SharedSlotUnavailable)) return error;
    return new TransportError(
      this.options.provider,
      'unavailable',
      `${this.options.provider}: no request slot (${error.message})`,
      { outcomeUnknown: false },
    );
  }
}
