/**
 * At most `limit` tasks at a time, started in arrival order (FIFO). Fiken allows "a single
 * concurrent API-request" per application: one instance of this per Fiken adapter keeps every
 * company's requests in one line.
 */
export class RequestSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('the request limit must be an integer ≥ 1');
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task in line; only when none waits is it freed.
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }
}
