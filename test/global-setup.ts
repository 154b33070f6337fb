// Relative imports, and the aliases registered by hand: jest's moduleNameMapper does not apply to
// globalSetup, and the migrations reach @app/domain (the merchant key function).
import './support/module-aliases';
import { Database } from '../libs/persistence/src/database/database';
import { assertTestDatabase, startEphemeralPostgres, type EphemeralPostgres } from './support/test-database';

declare global {
  var __EPHEMERAL_PG__: EphemeralPostgres | undefined;
}

/** Once per run: choose the database, migrate it, and hand its URL to every test file. */
export default async function globalSetup(): Promise<void> {
  let url = process.env.DATABASE_URL;
  if (url) {
    assertTestDatabase(url);
    process.env.TEST_DATABASE_KIND = 'postgresql';
  } else {
    globalThis.__EPHEMERAL_PG__ = await startEphemeralPostgres();
    url = globalThis.__EPHEMERAL_PG__.url;
    process.env.DATABASE_URL = url;
    process.env.TEST_DATABASE_KIND = 'pglite';
  }
  const db = await Database.open({ url, dataDir: '/nonexistent', role: 'client', poolSize: 2, runMigrations: true });
  await db.close();
}
