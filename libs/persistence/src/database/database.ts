import { DataSource, type DataSourceOptions, type EntitySchema, type MigrationInterface } from 'typeorm';
import { EmbeddedPostgres, readLiveLock, connectionFor, type EmbeddedConnection } from './embedded-postgres';
import { ENTITIES } from '../entities';
import { MIGRATIONS } from '../migrations';
import { addBackgroundPool } from './connection-pools';
import { databaseOutage } from './database-outage';
import {
  auditTrailPrivilegeProblems,
  DatabaseRefused,
  grantAppRole,
  pendingMigrations,
  roleOfUrl,
} from './database-roles';

/** One fixed key for the migration advisory lock, so that instances starting together take turns. */
export const MIGRATION_LOCK_KEY = 7305_0001;

export interface DatabaseOptions {
  /** A PostgreSQL URL. Unset → embedded PostgreSQL under dataDir. */
  url?: string;
  dataDir: string;
  /**
   * 'service' owns DATA_DIR (refuses when a live process holds it); 'client' (the CLI) connects to
   * the live holder's server, and starts one itself only when no live process holds the directory.
   */
  role: 'service' | 'client';
  poolSize?: number;
  /** How long a statement waits for a free or new connection of the pool before it fails (ms). */
  connectTimeoutMs?: number;
  /**
   * A second pool of this many connections for everything but requests (connection-pools.ts);
   * unset: one pool for all.
   */
  backgroundPoolSize?: number;
  /**
   * While the server cannot be reached (refused, restarting, out of connections), opening retries
   * until this long after the first attempt (ms), calling `onUnreachable` before each wait; then it
   * throws the last error. Unset or 0: the first failure throws.
   */
  startDeadlineMs?: number;
  onUnreachable?: (attempt: { attempt: number; retryInMs: number; reason: string }) => void;
  runMigrations?: boolean;
  /**
   * The URL of the role that owns the schema: migrations then run over a short-lived connection of
   * that role, which then re-applies the grants of `url`'s role (grantAppRole), and the data source
   * uses `url`'s. Unset → they run as `url`'s role.
   */
  migrationUrl?: string;
  /**
   * Refuse to open (DatabaseRefused) when `url`'s role could rewrite the audit trail (owns an
   * audit table, or may UPDATE, DELETE, TRUNCATE or add triggers to it) or when migrations are
   * pending (production). Real PostgreSQL only: the embedded database has one role.
   */
  refuseUnsafeRole?: boolean;
  logQueries?: boolean;
}

type MigrationClass = new () => MigrationInterface;

/** An open database: the TypeORM data source, plus the embedded server when this process runs it. */
export class Database {
  private constructor(
    readonly dataSource: DataSource,
    readonly embedded: boolean,
    private readonly server?: EmbeddedPostgres,
    private readonly closeBackgroundPool?: () => Promise<void>,
  ) {}

  static async open(options: DatabaseOptions): Promise<Database> {
    const migrateHere = (options.runMigrations ?? false) && options.migrationUrl === undefined;
    if (options.runMigrations && options.migrationUrl !== undefined) {
      const { migrationUrl } = options;
      await whileUnreachable(options, () => migrateAsOwner(migrationUrl, options.url));
    }
    // Migrating holds one connection for the advisory lock while TypeORM migrates on another.
    const poolSize = Math.max(options.poolSize ?? 10, migrateHere ? 2 : 1);
    let server: EmbeddedPostgres | undefined;
    let target: { url: string } | EmbeddedConnection;
    if (options.url) {
      target = { url: options.url };
    } else {
      const live = options.role === 'client' ? readLiveLock(options.dataDir) : null;
      if (live) {
        target = connectionFor(options.dataDir, live);
      } else {
        server = new EmbeddedPostgres(options.dataDir);
        target = await server.start();
      }
    }
    let dataSource: DataSource;
    let closeBackgroundPool: (() => Promise<void>) | undefined;
    try {
      dataSource = await whileUnreachable(options, async () => {
        const opening = new DataSource(
          dataSourceOptions(target, poolSize, options.logQueries ?? false, options.connectTimeoutMs),
        );
        try {
          await opening.initialize();
        } catch (error) {
          if (opening.isInitialized) await opening.destroy();
          throw error;
        }
        return opening;
      });
    } catch (error) {
      await server?.stop();
      throw error;
    }
    try {
      if (migrateHere) await runMigrations(dataSource);
      if (options.refuseUnsafeRole && options.url) await refuseUnsafeRole(dataSource);
      if (options.backgroundPoolSize !== undefined) {
        closeBackgroundPool = await addBackgroundPool(dataSource, options.backgroundPoolSize);
      }
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy();
      await server?.stop();
      throw error;
    }
    return new Database(dataSource, !options.url, server, closeBackgroundPool);
  }

  /** Closes every connection, and then the embedded server when this process runs it. */
  async close(): Promise<void> {
    await this.closeBackgroundPool?.();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.server?.stop();
  }
}

/** The database could not be reached within DB_START_DEADLINE_MS: a line to log, not a stack trace. */
export class DatabaseUnreachable extends Error {
  constructor(attempts: number, reason: string) {
    super(`the database could not be reached in ${attempts} attempts (last: ${reason}); giving up`);
    this.name = 'DatabaseUnreachable';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * `attempt` until it succeeds, retried while the error says the server cannot be reached
 * (databaseOutage) and `startDeadlineMs` has not passed: after 0.5 s, doubling up to 5 s.
 */
async function whileUnreachable<T>(options: DatabaseOptions, attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + (options.startDeadlineMs ?? 0);
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const retryInMs = Math.min(5_000, 500 * 2 ** (n - 1), deadline - Date.now());
      if (databaseOutage(error) === null) throw error;
      if (retryInMs <= 0) {
        if (n === 1) throw error;
        throw new DatabaseUnreachable(n, error instanceof Error ? error.message : String(error));
      }
      options.onUnreachable?.({
        attempt: n,
        retryInMs,
        reason: error instanceof Error ? error.message : String(error),
      });
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}

export function dataSourceOptions(
  target: { url: string } | EmbeddedConnection,
  poolSize: number,
  logging: boolean,
  connectTimeoutMs = 10_000,
): DataSourceOptions {
  return {
    type: 'postgres',
    ...target,
    entities: ENTITIES as EntitySchema[],
    migrations: MIGRATIONS as MigrationClass[],
    synchronize: false,
    migrationsRun: false,
    logging,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: connectTimeoutMs,
    },
  };
}

/**
 * Runs the migrations over a connection of their own, as the schema's owner (`ownerUrl`), then
 * re-applies the grants of the application's role (`appUrl`'s user) when it is another role that
 * exists, so that tables added by the migrations carry exactly the application's privileges.
 * Returns the migrations it ran.
 */
export async function migrateAsOwner(ownerUrl: string, appUrl?: string): Promise<string[]> {
  const owner = new DataSource(dataSourceOptions({ url: ownerUrl }, 2, false));
  await owner.initialize();
  try {
    const ran = await runMigrations(owner);
    const appRole = appUrl === undefined ? null : roleOfUrl(appUrl);
    if (appRole !== null && appRole !== roleOfUrl(ownerUrl)) await grantAppRole(owner, appRole, { create: false });
    return ran;
  } finally {
    await owner.destroy();
  }
}

/** Throws DatabaseRefused listing every reason the connected role must not run the service. */
async function refuseUnsafeRole(dataSource: DataSource): Promise<void> {
  const problems = await auditTrailPrivilegeProblems(dataSource.manager);
  const pending = await pendingMigrations(dataSource.manager);
  if (pending.length > 0) {
    problems.push(
      `the database lacks ${pending.length} migration(s) of this release (${pending.join(', ')}): run ` +
        '`npm run cli -- db migrate` with MIGRATION_DATABASE_URL, or set MIGRATE_ON_BOOT=true with it',
    );
  }
  if (problems.length > 0) throw new DatabaseRefused(problems);
}

/**
 * Runs pending migrations while holding a PostgreSQL advisory lock, so that several instances
 * starting at once migrate one after the other and the later ones find nothing to do.
 * Returns the names of the migrations it ran.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      return ran.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
