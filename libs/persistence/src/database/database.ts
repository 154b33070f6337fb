import { DataSource, type DataSourceOptions, type EntitySchema, type MigrationInterface } from 'typeorm';
import { EmbeddedPostgres, readLiveLock, connectionFor, type EmbeddedConnection } from './embedded-postgres';
import { ENTITIES } from '../entities';
import { MIGRATIONS } from '../migrations';

/** One fixed key for the migration advisory lock, so that instances starting together take turns. */
export const MIGRATION_LOCK_KEY = 7305_0001;

export interface DatabaseOptions {
  /** A PostgreSQL URL. Unset → embedded PostgreSQL (PGlite) under dataDir. */
  url?: string;
  dataDir: string;
  /**
   * 'service' owns DATA_DIR (refuses when a live process holds it); 'client' (the CLI) goes through
   * the live holder's socket, and opens the directory itself only when no live process holds it.
   */
  role: 'service' | 'client';
  poolSize?: number;
  runMigrations?: boolean;
  logQueries?: boolean;
}

type MigrationClass = new () => MigrationInterface;

/** An open database: the TypeORM data source, plus the embedded server when this process runs it. */
export class Database {
  private constructor(
    readonly dataSource: DataSource,
    readonly embedded: boolean,
    private readonly server?: EmbeddedPostgres,
  ) {}

  static async open(options: DatabaseOptions): Promise<Database> {
    // Migrating holds one connection for the advisory lock while TypeORM migrates on another.
    const poolSize = Math.max(options.poolSize ?? 10, options.runMigrations ? 2 : 1);
    let server: EmbeddedPostgres | undefined;
    let target: { url: string } | EmbeddedConnection;
    if (options.url) {
      target = { url: options.url };
    } else {
      const live = options.role === 'client' ? readLiveLock(options.dataDir) : null;
      if (live) {
        target = connectionFor(live);
      } else {
        server = new EmbeddedPostgres(options.dataDir, poolSize * 2 + 4);
        target = await server.start();
      }
    }
    const dataSource = new DataSource(dataSourceOptions(target, poolSize, options.logQueries ?? false));
    try {
      await dataSource.initialize();
      if (options.runMigrations) await runMigrations(dataSource);
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy();
      await server?.stop();
      throw error;
    }
    return new Database(dataSource, !options.url, server);
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.server?.stop();
  }
}

export function dataSourceOptions(
  target: { url: string } | EmbeddedConnection,
  poolSize: number,
  logging: boolean,
): DataSourceOptions {
  return {
    type: 'postgres',
    ...target,
    entities: ENTITIES as EntitySchema[],
    migrations: MIGRATIONS as MigrationClass[],
    synchronize: false,
    migrationsRun: false,
    logging,
    extra: { max: poolSize, connectionTimeoutMillis: 10_000 },
  };
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
