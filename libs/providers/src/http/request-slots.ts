/** Which line a task waits in: `urgent` tasks (bookings) start before any `background` one (list paging). */
export type SlotPriority = 'urgent' | 'background';

/**
 * At most `limit` tasks at a time, each line in arrival order (FIFO), urgent tasks before background
 * ones. Fiken allows "a single concurrent API-request" per application: one instance of this per
 * Fiken adapter keeps every company's requests in one line, and a large company's daily-check
 * paging never holds up another company's booking for more than the one request in flight.
 */
export class RequestSlots {
  private running = 0;
  private readonly waiting: Record<SlotPriority, Array<() => void>> = { urgent: [], background: [] };

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('the request limit must be an integer ≥ 1');
  }

  async run<T>(task: () => Promise<T>, priority: SlotPriority = 'urgent'): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.urgent.shift() ?? this.waiting.background.shift();
      // The slot passes straight to the next task in line; only when none waits is it freed.
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.urgent.length + this.waiting.background.length;
  }
}
