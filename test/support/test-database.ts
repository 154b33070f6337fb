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
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@${host}:${port}/test`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
