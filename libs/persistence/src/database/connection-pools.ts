import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';

/**
 * Two pools on one data source: requests take their connections from the API's pool, everything
 * else (the executor, the outbox dispatcher, the event sealer, the checks, the purges, start-up)
 * from a pool of its own, so that background work can never take the connections requests need,
 * however much of it there is. Which one a statement uses follows the async context it runs in:
 * `runAsRequest` marks a request's (the HTTP edge calls it for every request); the rest is
 * background work.
 */
const requestScope = new AsyncLocalStorage<true>();

/** Runs `work` (and everything it awaits or starts) on the API's pool. */
export function runAsRequest<T>(work: () => T): T {
  return requestScope.run(true, work);
}

type Release = (error?: unknown) => void;
interface PgPool {
  connect(callback: (error: Error | undefined, client: unknown, release: Release) => void): void;
}
interface PostgresDriverInternals {
  master?: PgPool;
  options: { extra?: Record<string, unknown> } & Record<string, unknown>;
  createPool(options: object, credentials: object): Promise<PgPool>;
  closePool(pool: PgPool): Promise<void>;
  obtainMasterConnection(): Promise<[unknown, Release]>;
}

/** How long background work waits for a connection of its pool: it has no client waiting. */
const BACKGROUND_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Gives the initialized data source a second pool of `size` connections for background work, and
 * returns what closes it. The API's pool is the data source's own (its `extra.max`).
 */
export async function addBackgroundPool(dataSource: DataSource, size: number): Promise<() => Promise<void>> {
  const driver = dataSource.driver as unknown as PostgresDriverInternals;
  const background = await driver.createPool(
    {
      ...driver.options,
      extra: { ...(driver.options.extra ?? {}), max: size, connectionTimeoutMillis: BACKGROUND_CONNECT_TIMEOUT_MS },
    },
    driver.options,
  );
  driver.obtainMasterConnection = () => {
    const pool = requestScope.getStore() ? driver.master : background;
    if (!pool) return Promise.reject(new Error('the database is closed'));
    return new Promise((resolve, reject) => {
      pool.connect((error, client, release) => (error ? reject(error) : resolve([client, release])));
    });
  };
  return () => driver.closePool(background);
}
