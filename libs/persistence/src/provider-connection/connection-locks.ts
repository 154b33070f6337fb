/** FIFO mutual exclusion per key within this process. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/**
 * The process's lock on each company's connection: every store instance of the process shares it
 * unless given its own (the contract test, to prove the row lock alone across "processes").
 */
export const PROCESS_CONNECTION_LOCKS = new KeyedMutex();

export function connectionLockKey(companyId: string): string {
  return `provider-connection ${companyId}`;
}
