import type { SlotPriority } from '../http/request-slots';

/** A held shared slot: `release` gives it back (and never throws). */
export interface SlotHold {
  release(): Promise<void>;
}

/**
 * A provider's one request slot, shared by every instance of the service on one store (the
 * database): Fiken allows a single API request in flight per application, not per process.
 *
 * - `urgent` (bookings) waits for the slot, in arrival order, for a bounded time; past it, or when
 *   the store cannot be reached, it rejects with `SharedSlotUnavailable` (retryable: nothing was sent).
 * - `background` (the checks' and the history's paging) takes the slot only when nobody holds it and
 *   no `urgent` request waits for it in any instance; otherwise it resolves `null` at once, and the
 *   caller tries again later. So paging never holds a booking up for more than one request.
 *
 * One adapter instance is one participant: two holds of the same name from one adapter exclude each
 * other just as two instances do. A holder that dies (its process, its connection) loses the slot.
 */
export abstract class SharedRequestSlots {
  abstract acquire(name: string, priority: SlotPriority): Promise<SlotHold | null>;
}

/** The shared slot could not be had in time (or its store is unreachable): nothing was sent, try again. */
export class SharedSlotUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SharedSlotUnavailable';
  }
}
