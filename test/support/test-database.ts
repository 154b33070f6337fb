import type { AddressInfo } from 'node:net';
/**
 * The database the e2e tests use. With DATABASE_URL set (CI) it is that real PostgreSQL, whose
 * database name must contain "test" so a suite can never run against a real one. Without it, an
 * in-memory PGlite is served over TCP by pglite-socket from the jest process, so the very same
 * `pg` driver and SQL run either way.
 */
export function assertTestDatabase(url: string): void {
  const name = new URL(url).pathname.replace(/^\//, '');
  if (!/test/i.test(name)) {
    throw new Error(`refusing to run tests against database "${name}": its name must contain "test"`);
  }
}

export interface EphemeralPostgres {
  url: string;
  stop(): Promise<void>;
}

export async function startEphemeralPostgres(): Promise<EphemeralPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { servePGlite } = await import('../../libs/persistence/src/database/embedded-postgres');
  const db = await PGlite.create({ extensions: { pg_trgm } });
  // The service's own server: connections take turns on PGlite's one session by whole exchanges.
  const server = await servePGlite(db, { host: '127.0.0.1', port: 0 }, 64);
  const { address, port } = server.address as AddressInfo;
  return {
    url: `postgres://postgres@${address}:${port}/test`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

export interface IsolatedTestDatabase {
  url: string;
  dispose(): Promise<void>;
}

/**
 * A migrated database of its own, for suites whose workers act on every company's rows (the
 * executor claims every due proposal, the daily job every company): real PostgreSQL gets a
 * throwaway database beside the shared one, PGlite a fresh in-memory server. Other suites running
 * in parallel on the shared database then cannot hand them work, nor see theirs.
 */
export async function isolatedTestDatabase(label: string): Promise<IsolatedTestDatabase> {
  const { Database } = await import('../../libs/persistence/src/database/database');
  const migrate = async (url: string) => {
    const db = await Database.open({ url, dataDir: '/nonexistent', role: 'client', poolSize: 2, runMigrations: true });
    await db.close();
  };
  const shared = process.env.DATABASE_URL;
  if (process.env.TEST_DATABASE_KIND !== 'postgresql' || !shared) {
    const pg = await startEphemeralPostgres();
    await migrate(pg.url);
    return { url: pg.url, dispose: () => pg.stop() };
  }
  const { Client } = await import('pg');
  const admin = new URL(shared);
  const name =
    `${admin.pathname.slice(1)}_${label}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`.toLowerCase();
  const run = async (sql: string) => {
    const client = new Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return { url: url.toString(), dispose: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
