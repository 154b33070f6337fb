/**
 * Runs tasks one at a time per key, in arrival order (FIFO), with no limit across keys.
 * Used where work for one key must not overlap (a company's token refresh in the in-memory token store).
 */
export class KeyedSerialQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
      }
    });
    return result;
  }

  /** Keys with a task queued or running. */
  get activeKeys(): number {
    return this.tails.size;
  }
}
