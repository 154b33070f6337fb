import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Database } from '../database/database';

/**
 * Support for the persistence specs (jest project `db`): the global setup has migrated the shared
 * test database and put its URL in DATABASE_URL (the given PostgreSQL, or an embedded one it
 * started), and migrated a template database for isolated ones (TEST_TEMPLATE_DATABASE).
 */
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

/** Runs one statement on the shared database's server, over a connection of its own. */
async function onServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: sharedUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database of its own beside the shared one (its name keeps the shared one's, and so
 * "test", in it): a copy of the migrated template the global setup made, which takes a fraction
 * of a second, or an empty one when `migrated` is false. Returns its URL and how to drop it.
 */
export async function createIsolatedDatabase(
  label: string,
  migrated = true,
): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = new URL(sharedUrl());
  const name = `${shared.pathname.slice(1)}_${label}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const template = process.env.TEST_TEMPLATE_DATABASE;
  if (migrated && !template) throw new Error('TEST_TEMPLATE_DATABASE is not set: run through the jest project "db"');
  await onServer(`CREATE DATABASE "${name}"${migrated ? ` TEMPLATE "${template}"` : ''}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * A database of its own (createIsolatedDatabase), open, for contract suites whose cases need
 * whole tables to themselves (fixed ids, global claims). Tests running in parallel against the
 * shared database can then neither see nor disturb these rows.
 */
export async function openIsolatedDatabase(
  label: string,
  options: { /** A migrated copy (default); false leaves the database empty. */ migrate?: boolean } = {},
): Promise<IsolatedDatabase> {
  const created = await createIsolatedDatabase(label, options.migrate ?? true);
  const database = await Database.open({ url: created.url, dataDir: '/nonexistent', role: 'client', poolSize: 4 });
  return {
    database,
    async dispose() {
      await database.close();
      await created.drop();
    },
  };
}
