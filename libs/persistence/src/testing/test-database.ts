import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Database } from '../database/database';

/**
 * Support for the persistence specs (jest project `db`): the global setup has migrated the shared
 * test database and put its URL in DATABASE_URL (real PostgreSQL when TEST_DATABASE_KIND is
 * 'postgresql', an in-memory PGlite served over TCP otherwise).
 */
export function isRealPostgres(): boolean {
  return process.env.TEST_DATABASE_KIND === 'postgresql';
}

function sharedUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run the persistence specs through the jest project "db"');
  return url;
}

/** The shared, migrated test database. Close it in afterAll. */
export function openTestDatabase(poolSize = 4): Promise<Database> {
  return Database.open({ url: sharedUrl(), dataDir: '/nonexistent', role: 'client', poolSize });
}

/** A company id unique to this run (a valid slug). */
export function uniqueCompanySlug(label = 'co'): string {
  return `${label}-${randomBytes(8).toString('hex')}`;
}

export async function createCompany(database: Database, id: string = uniqueCompanySlug()): Promise<string> {
  await database.dataSource.query('INSERT INTO companies (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
    id,
    `Company ${id}`,
  ]);
  return id;
}

export interface IsolatedDatabase {
  readonly database: Database;
  dispose(): Promise<void>;
}

/**
 * A database of its own, migrated, for contract suites whose cases need whole tables to
 * themselves (fixed ids, global claims): real PostgreSQL gets a throwaway database beside the
 * shared one (its name keeps "test" in it), PGlite a fresh embedded instance in a temporary
 * directory. Tests running in parallel against the shared database can then neither see nor
 * disturb these rows.
 */
export async function openIsolatedDatabase(
  label: string,
  options: { /** Run the migrations (default); false leaves the database empty. */ migrate?: boolean } = {},
): Promise<IsolatedDatabase> {
  const runMigrations = options.migrate ?? true;
  if (!isRealPostgres()) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `acct-${label}-`));
    const database = await Database.open({ dataDir, role: 'service', poolSize: 4, runMigrations });
    return {
      database,
      async dispose() {
        await database.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const shared = new URL(sharedUrl());
  const name = `${shared.pathname.replace(/^\//, '')}_${label}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = await openTestDatabase(1);
  await admin.dataSource.query(`CREATE DATABASE "${name}"`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const database = await Database.open({
    url: url.toString(),
    dataDir: '/nonexistent',
    role: 'client',
    poolSize: 4,
    runMigrations,
  });
  return {
    database,
    async dispose() {
      await database.close();
      await admin.dataSource.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.close();
    },
  };
}
