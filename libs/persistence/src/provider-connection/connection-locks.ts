import type { DataSource } from 'typeorm';

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

const sessionSharing = new WeakMap<DataSource, Promise<boolean>>();

/**
 * True when every connection of the data source shares one database session: embedded PGlite,
 * which runs one transaction at a time for all its clients. There a transaction must not wait for
 * another connection (it would wait for ever), and row locks exclude nobody, so the process lock
 * is the lock; PGlite is only ever served by the one process that owns its data directory.
 */
export function sharesOneSession(dataSource: DataSource): Promise<boolean> {
  let answer = sessionSharing.get(dataSource);
  if (!answer) {
    answer = dataSource
      .query('SELECT version() AS version')
      .then((rows: Array<{ version: string }>) => /PGlite/i.test(rows[0]?.version ?? ''));
    sessionSharing.set(dataSource, answer);
  }
  return answer;
}
