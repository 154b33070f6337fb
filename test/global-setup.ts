// Relative imports, and the aliases registered by hand: jest's moduleNameMapper does not apply to
// globalSetup, and the migrations reach @app/domain (the merchant key function).
import './support/module-aliases';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { Database } from '../libs/persistence/src/database/database';
import { EmbeddedPostgres } from '../libs/persistence/src/database/embedded-postgres';
import { testEventChainKeys } from '../libs/persistence/src/testing/test-keyring';
import { assertTestDatabase } from './support/test-database';

declare global {
  var __EMBEDDED_PG__: { server: EmbeddedPostgres; dataDir: string } | undefined;
  var __TEST_TEMPLATE__: { url: string; name: string } | undefined;
}

async function onServer(url: string, ...statements: string[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

async function migrate(url: string): Promise<void> {
  const db = await Database.open({ url, dataDir: '/nonexistent', role: 'client', poolSize: 2, runMigrations: true });
  await db.close();
}

/**
 * Gives the shared test database its event chain key under the test keyring before any suite runs.
 * Whichever suite sealed first used to create it: when that was an app with a keyring of its own
 * (the order of suites varies from run to run), every suite sealing under the test keyring after it
 * failed to unwrap the key.
 */
async function keyTheChain(url: string): Promise<void> {
  const db = await Database.open({ url, dataDir: '/nonexistent', role: 'client', poolSize: 1, runMigrations: false });
  try {
    await testEventChainKeys(db.dataSource.manager).current();
  } finally {
    await db.close();
  }
}

/**
 * Once per run: choose the database server (DATABASE_URL's, else an embedded PostgreSQL in a
 * temporary directory, stopped and removed by the teardown), migrate a template database that
 * isolated databases are copied from (TEST_TEMPLATE_DATABASE), make sure the shared test database
 * is migrated, and hand its URL to every test file.
 */
export default async function globalSetup(): Promise<void> {
  let url = process.env.DATABASE_URL;
  let shared: string;
  if (url) {
    assertTestDatabase(url);
    shared = new URL(url).pathname.slice(1);
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-test-pg-'));
    // Every suite of a run shares this server: room for their pools, and no fsync (throwaway data).
    const server = new EmbeddedPostgres(dataDir, { maxConnections: 400, disposable: true });
    globalThis.__EMBEDDED_PG__ = { server, dataDir };
    const c = await server.start();
    shared = 'acct_test';
    url = `postgres://${c.username}:${encodeURIComponent(c.password)}@${c.host}:${c.port}/${shared}`;
  }
  const template = `${shared}_template`;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  await onServer(
    admin.toString(),
    `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`,
    `CREATE DATABASE "${template}"`,
  );
  globalThis.__TEST_TEMPLATE__ = { url: admin.toString(), name: template };
  if (globalThis.__EMBEDDED_PG__) {
    await migrate(templateUrl.toString());
    await onServer(admin.toString(), `CREATE DATABASE "${shared}" TEMPLATE "${template}"`);
  } else {
    // Two databases, each migrated under its own lock: at once (no test starts before both are).
    await Promise.all([migrate(templateUrl.toString()), migrate(url)]);
  }
  await keyTheChain(url);
  process.env.DATABASE_URL = url;
  process.env.TEST_TEMPLATE_DATABASE = template;
}

export { onServer };
