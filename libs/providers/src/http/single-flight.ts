/** Joins concurrent calls for the same key onto one running promise. */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, task: () => Promise<T>): Promise<T> {
    const existing = this.running.get(key);
    if (existing) {
      return existing;
    }
    const started = task().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}
