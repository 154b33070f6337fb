/**
 * The database the e2e tests use. With DATABASE_URL set (CI) it is that PostgreSQL, whose database
 * name must contain "test" so a suite can never run against a real one. Without it, the global
 * setup starts an embedded PostgreSQL server for the run (test/global-setup.ts).
 */
export function assertTestDatabase(url: string): void {
  const name = new URL(url).pathname.replace(/^\//, '');
  if (!/test/i.test(name)) {
    throw new Error(`refusing to run tests against database "${name}": its name must contain "test"`);
  }
}

export interface IsolatedTestDatabase {
  url: string;
  dispose(): Promise<void>;
}

/**
 * A migrated database of its own (a copy of the run's template database), for suites whose
 * workers act on every company's rows (the executor claims every due proposal, the daily job
 * every company). Other suites running in parallel on the shared database then cannot hand them
 * work, nor see theirs.
 */
export async function isolatedTestDatabase(label: string): Promise<IsolatedTestDatabase> {
  const { createIsolatedDatabase } = await import('../../libs/persistence/src/testing/test-database');
  const created = await createIsolatedDatabase(label);
  return { url: created.url, dispose: () => created.drop() };
}
