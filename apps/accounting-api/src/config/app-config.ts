import * as fs from 'node:fs';
import * as path from 'node:path';
import { DailyCheckSettings } from '../daily-check/daily-check.settings';
import { ExecutorSettings } from '../execution/executor.settings';
import { hasProviderCredentials, PROVIDERS, type ProviderEnv } from '@app/providers';
import { parseEnv, type Env, type LogLevel } from './env.schema';

/**
 * The service's configuration, read from the environment once at boot (docs/api.md §5). Every bad
 * variable is reported together; the rest of the code receives this typed, injectable object.
 */
export class AppConfig {
  /** The proposal executor (EXECUTOR_*). */
  executor!: ExecutorSettings;
  /** The daily 07:00 UTC check (DAILY_CHECK_*). */
  dailyCheck!: DailyCheckSettings;
  /** Whether this instance delivers the notification outbox (OUTBOX_DISPATCH_ENABLED), and how often it looks. */
  outboxDispatch!: boolean;
  /**
   * Messages for which a company has no channel go to the log and the console instead of failing
   * (DEVELOPMENT_CHANNEL); on in development, off under jest, never in production.
   */
  developmentChannel!: boolean;
  outboxPollMs!: number;
  /** How long the dispatcher's claim of a notification lasts unless renewed (OUTBOX_LEASE_MS); renewed every third of it while it delivers. */
  outboxLeaseMs!: number;
  /** Master key from which each company's webhook signing secret is derived; undefined → DATA_DIR/webhook-signing-key. */
  webhookSigningKey?: string;
  /** HTTP port. */
  port!: number;
  /**
   * The address the listener binds (HOST); undefined → every interface, as Node binds by default
   * (`::`, which takes IPv4 too, or `0.0.0.0` where IPv6 is off): what a container needs.
   */
  host?: string;
  /** Origin under which the service is reachable, for links it hands out (OAuth redirect, docs). */
  publicUrl!: string;
  /** PostgreSQL URL; undefined → embedded PostgreSQL under dataDir. */
  databaseUrl?: string;
  /**
   * PostgreSQL URL of the role that owns the schema and runs the migrations (at boot, and
   * `db migrate`); undefined → they run as `databaseUrl`'s role, which production refuses.
   */
  migrationDatabaseUrl?: string;
  dataDir!: string;
  /** Connections of the API's pool (HTTP requests). */
  dbPoolSize!: number;
  /** Connections of the background work's own pool (executor, outbox, sealer, checks, purges). */
  dbWorkerPoolSize!: number;
  /** How long a request waits for a free or new database connection before it answers 503. */
  dbConnectTimeoutMs!: number;
  /** How long start-up waits for an unreachable database, retrying, before it gives up (exit 1). */
  dbStartDeadlineMs!: number;
  /** After SIGTERM: how long requests in flight may take to finish before the process exits anyway. */
  shutdownGraceMs!: number;
  /** Run pending migrations at start (as `migrationDatabaseUrl`'s role when set). */
  migrateOnBoot!: boolean;
  /** Create the `demo` company on start when it does not exist (default: on with embedded PostgreSQL). */
  seedDemoCompany!: boolean;
  /** Read the company's booking history when it connects (default: on; off under jest). */
  historyImportOnConnect!: boolean;
  gatewayIssuer!: string;
  gatewayAudience?: string;
  /** Path or http(s) URL of the gateway JWKS; undefined → the dev key set in dataDir. */
  gatewayJwks?: string;
  /** How often a JWKS URL is re-fetched (a file is re-read as soon as it changes). */
  jwksRefreshSeconds!: number;
  kekSource?: string;
  /** Where the key-encryption key comes from (KEK_SOURCE parsed; see `kekSettings`). */
  kek!: KekSettings;
  providerSandbox!: boolean;
  /** Port of the in-process sandbox in sandbox mode; 0 = any free port. */
  providerSandboxPort!: number;
  /**
   * The parsed environment by variable name, where each registered provider reads its own variables
   * (`ProviderDefinition.config`: credentials, some secret, and where its API is).
   */
  providerEnv!: ProviderEnv;
  /** Key of the HMAC that signs onboarding `state`s; undefined → generated into dataDir. */
  stateSecret?: string;
  /** Per-attempt timeout of provider calls. */
  providerTimeoutMs!: number;
  /** Retries of transient provider failures. */
  providerRetries!: number;
  rateLimitPerMinute!: number;
  /** Redis for the rate limit's counters; undefined → they are kept in each instance's memory. */
  redisUrl?: string;
  /** How long a rate limit call to Redis may take before the request is counted in memory instead. */
  redisTimeoutMs!: number;
  /** How long company settings and context are cached per instance (0: not cached). */
  companyCacheTtlMs!: number;
  /** Largest body of the proposal submission (a receipt of up to 7 MiB travels base64 in it). */
  bodyLimitBytes!: number;
  /** Largest body of every other route. */
  smallBodyLimitBytes!: number;
  /** Slow clients (Node's http.Server): whole request, headers, idle keep-alive; and open connections. */
  httpRequestTimeoutMs!: number;
  httpHeadersTimeoutMs!: number;
  httpKeepAliveTimeoutMs!: number;
  httpMaxConnections!: number;
  /** Open connections one client address may hold (below httpMaxConnections). */
  httpMaxConnectionsPerAddress!: number;
  receiptMaxBytes!: number;
  /** How often the event sealer chains new events into the hash chain; 0 = not in this instance. */
  eventSealIntervalMs!: number;
  /** How often expired idempotency keys are deleted; 0 = not in this instance. */
  idempotencyPurgeIntervalMs!: number;
  logLevel!: LogLevel;
  /** JSON lines (production, pipes) or pino-pretty's readable lines (a developer's terminal). */
  logFormat!: 'json' | 'pretty';
  production!: boolean;

  /** The JWKS the guard trusts: the configured one or the dev key set. */
  get jwksSource(): string {
    return this.gatewayJwks ?? devJwksPath(this.dataDir);
  }

  get usesDevKeys(): boolean {
    return this.gatewayJwks === undefined;
  }
}

/** The KMS that wraps the companies' DEKs: a local keyring file, or AWS KMS. */
export type KekSettings =
  | { readonly kind: 'local'; readonly keyringPath: string }
  | { readonly kind: 'aws'; readonly keyId: string; readonly region: string; readonly endpoint?: string };

export function devKeysDir(dataDir: string): string {
  return path.join(dataDir, 'dev-keys');
}

export function devJwksPath(dataDir: string): string {
  return path.join(devKeysDir(dataDir), 'jwks.json');
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Reads and validates the environment (env.schema.ts). Throws ConfigError listing every problem at once. */
/**
 * Reads `file` (./.env) into the environment when it exists, as Node's --env-file-if-exists does:
 * a variable already set in the environment wins over the file's.
 */
export function loadDotEnv(file = '.env'): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

export function loadConfig(raw: Record<string, string | undefined> = process.env): AppConfig {
  const { env, problems } = parseEnv(raw);
  if (problems.length > 0) throw new ConfigError(problems);

  const config = new AppConfig();
  const underJest = env.NODE_ENV === 'test';
  config.production = env.NODE_ENV === 'production';
  config.port = env.PORT ?? 3000;
  config.host = env.HOST;
  config.publicUrl = env.PUBLIC_URL ?? `http://localhost:${config.port}`;
  config.databaseUrl = env.DATABASE_URL;
  config.migrationDatabaseUrl = env.MIGRATION_DATABASE_URL;
  config.dataDir = path.resolve(env.DATA_DIR ?? './data');
  const embedded = config.databaseUrl === undefined;
  config.dbPoolSize = env.DB_POOL_SIZE ?? 10;
  config.dbWorkerPoolSize = env.DB_WORKER_POOL_SIZE ?? 5;
  config.dbConnectTimeoutMs = env.DB_CONNECT_TIMEOUT_MS ?? 2_000;
  config.dbStartDeadlineMs = env.DB_START_DEADLINE_MS ?? 60_000;
  config.shutdownGraceMs = env.SHUTDOWN_GRACE_MS ?? 10_000;
  // In production the service's role must not own the tables (it could rewrite the audit trail), so
  // it migrates at start only as MIGRATION_DATABASE_URL's role; without that, `db migrate` runs as a
  // release step.
  config.migrateOnBoot = env.MIGRATE_ON_BOOT ?? (!config.production || config.migrationDatabaseUrl !== undefined);
  config.seedDemoCompany = env.SEED_DEMO_COMPANY ?? embedded;
  config.historyImportOnConnect = env.HISTORY_IMPORT_ON_CONNECT ?? !underJest;
  config.gatewayIssuer = env.GATEWAY_ISSUER ?? 'agent-gateway';
  config.gatewayAudience = env.GATEWAY_AUDIENCE;
  config.gatewayJwks = env.GATEWAY_JWKS;
  config.jwksRefreshSeconds = env.JWKS_REFRESH_SECONDS ?? 60;
  config.kekSource = env.KEK_SOURCE;
  config.kek = kekSettings(env, config.dataDir);
  // The sandboxes stand in for the providers in development; production runs them only when told.
  config.providerSandbox =
    env.PROVIDER_SANDBOX ?? (!config.production && !hasProviderCredentials(PROVIDERS, env.variables));
  config.providerSandboxPort = env.PROVIDER_SANDBOX_PORT ?? 0;
  config.providerEnv = env.variables;
  config.stateSecret = env.STATE_SECRET;
  config.providerTimeoutMs = env.PROVIDER_TIMEOUT_MS ?? 10_000;
  config.providerRetries = env.PROVIDER_RETRIES ?? 3;
  config.rateLimitPerMinute = env.RATE_LIMIT_PER_MINUTE ?? 300;
  config.redisUrl = env.REDIS_URL;
  config.redisTimeoutMs = env.REDIS_TIMEOUT_MS ?? 100;
  config.companyCacheTtlMs = env.COMPANY_CACHE_TTL_MS ?? 5_000;
  config.bodyLimitBytes = env.BODY_LIMIT_BYTES ?? 10 * 1024 * 1024;
  config.smallBodyLimitBytes = env.SMALL_BODY_LIMIT_BYTES ?? 64 * 1024;
  config.httpRequestTimeoutMs = env.HTTP_REQUEST_TIMEOUT_MS ?? 30_000;
  config.httpHeadersTimeoutMs = env.HTTP_HEADERS_TIMEOUT_MS ?? 10_000;
  config.httpKeepAliveTimeoutMs = env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 5_000;
  config.httpMaxConnections = env.HTTP_MAX_CONNECTIONS ?? 1_000;
  config.httpMaxConnectionsPerAddress = env.HTTP_MAX_CONNECTIONS_PER_ADDRESS ?? 100;
  config.receiptMaxBytes = env.RECEIPT_MAX_BYTES ?? 7 * 1024 * 1024;
  // Background jobs are on by default, and off under jest (NODE_ENV=test), where tests drive them.
  config.eventSealIntervalMs = env.EVENT_SEAL_INTERVAL_MS ?? (underJest ? 0 : 1000);
  config.idempotencyPurgeIntervalMs = env.IDEMPOTENCY_PURGE_INTERVAL_MS ?? (underJest ? 0 : 3_600_000);
  config.logLevel = env.LOG_LEVEL ?? 'info';
  // Readable in a developer's terminal; JSON wherever a machine reads the logs.
  config.logFormat =
    env.LOG_FORMAT ?? (!config.production && !underJest && process.stdout.isTTY === true ? 'pretty' : 'json');
  config.webhookSigningKey = env.WEBHOOK_SIGNING_KEY;
  config.executor = ExecutorSettings.read(env, { jobsByDefault: !underJest });
  config.dailyCheck = DailyCheckSettings.read(env, { jobsByDefault: !underJest });
  config.outboxDispatch = env.OUTBOX_DISPATCH_ENABLED ?? !underJest;
  config.developmentChannel = !config.production && (env.DEVELOPMENT_CHANNEL ?? !underJest);
  config.outboxPollMs = env.OUTBOX_POLL_MS ?? 1_000;
  config.outboxLeaseMs = env.OUTBOX_LEASE_MS ?? 15_000;
  return config;
}

/**
 * KEK_SOURCE: unset → a local keyring file `keyring.json` in DATA_DIR (development only: production
 * requires KEK_SOURCE); `local:<path>` → that keyring file; `aws-kms:<key id, ARN or alias>` → AWS
 * KMS in AWS_REGION (AWS_ENDPOINT_URL overrides the endpoint: a VPC endpoint, LocalStack).
 */
function kekSettings(env: Env, dataDir: string): KekSettings {
  const source = env.KEK_SOURCE;
  if (source?.startsWith('aws-kms:')) {
    return {
      kind: 'aws',
      keyId: source.slice('aws-kms:'.length),
      region: env.AWS_REGION ?? '',
      endpoint: env.AWS_ENDPOINT_URL,
    };
  }
  if (source?.startsWith('local:')) return { kind: 'local', keyringPath: path.resolve(source.slice('local:'.length)) };
  return { kind: 'local', keyringPath: path.join(dataDir, 'keyring.json') };
}
