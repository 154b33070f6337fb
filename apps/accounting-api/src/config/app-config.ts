import * as path from 'node:path';
import { DailyCheckSettings } from '../daily-check/daily-check.settings';
import { ExecutorSettings } from '../execution/executor.settings';
import { EnvSettings } from './env-settings';

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
  outboxPollMs!: number;
  /** Master key from which each company's webhook signing secret is derived; undefined → DATA_DIR/webhook-signing-key. */
  webhookSigningKey?: string;
  /** HTTP port. */
  port!: number;
  /** Origin under which the service is reachable, for links it hands out (OAuth redirect, docs). */
  publicUrl!: string;
  /** PostgreSQL URL; undefined → embedded PostgreSQL (PGlite) under dataDir. */
  databaseUrl?: string;
  /**
   * PostgreSQL URL of the role that owns the schema and runs the migrations (at boot, and
   * `db migrate`); undefined → they run as `databaseUrl`'s role, which production refuses.
   */
  migrationDatabaseUrl?: string;
  dataDir!: string;
  dbPoolSize!: number;
  /** Run pending migrations at start (as `migrationDatabaseUrl`'s role when set). */
  migrateOnBoot!: boolean;
  /** Create the `demo` company on start when it does not exist (default: on with embedded PostgreSQL). */
  seedDemoCompany!: boolean;
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
  /** The application's Tripletex consumer token (secret). */
  tripletexConsumerToken?: string;
  /** Tripletex API root. */
  tripletexApiUrl!: string;
  /** The Fiken OAuth client (the secret is secret). */
  fikenClientId?: string;
  fikenClientSecret?: string;
  /** Fiken API root. */
  fikenApiUrl!: string;
  /** Fiken OAuth root: `{url}/authorize`, `{url}/token`. */
  fikenOAuthUrl!: string;
  /** Fiken API requests in flight at once from this instance, across every company (Fiken allows one). */
  fikenMaxConcurrentRequests!: number;
  /** Key of the HMAC that signs onboarding `state`s; undefined → generated into dataDir. */
  stateSecret?: string;
  /** Per-attempt timeout of provider calls. */
  providerTimeoutMs!: number;
  /** Retries of transient provider failures. */
  providerRetries!: number;
  rateLimitPerMinute!: number;
  /** Redis for the rate limit's counters; undefined → they are kept in PostgreSQL. */
  redisUrl?: string;
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
  receiptMaxBytes!: number;
  /** How often the event sealer chains new events into the hash chain; 0 = not in this instance. */
  eventSealIntervalMs!: number;
  /** How often expired idempotency keys are deleted; 0 = not in this instance. */
  idempotencyPurgeIntervalMs!: number;
  logLevel!: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production!: boolean;
  /** V8's allocation-site pretenuring (V8_ALLOCATION_SITE_PRETENURING); off by default, see platform/heap-tuning.ts. */
  v8AllocationSitePretenuring!: boolean;
  /** How far V8 lets the heap grow past its live data before a full collection (V8_HEAP_GROWING_PERCENT); 0 = V8's own factor. */
  v8HeapGrowingPercent!: number;

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

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Reads and validates the environment. Throws ConfigError listing every problem at once. */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const str = (key: string): string | undefined => {
    const value = env[key]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const raw = str(key);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${key} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const raw = str(key)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'off', 'no'].includes(raw)) return false;
    problems.push(`${key} must be true/false, on/off, 1/0 (got "${raw}")`);
    return fallback;
  };
  const url = (key: string, protocols: string[]): string | undefined => {
    const raw = str(key);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error();
      return raw;
    } catch {
      problems.push(`${key} must be a ${protocols.join(' or ')} URL`);
      return undefined;
    }
  };

  const config = new AppConfig();
  config.production = str('NODE_ENV') === 'production';
  config.port = int('PORT', 3000, 0, 65535);
  config.publicUrl = url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${config.port}`;
  config.databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  config.migrationDatabaseUrl = url('MIGRATION_DATABASE_URL', ['postgres:', 'postgresql:']);
  if (config.migrationDatabaseUrl !== undefined && config.databaseUrl === undefined) {
    problems.push('MIGRATION_DATABASE_URL needs DATABASE_URL (the embedded database has a single role)');
  }
  config.dataDir = path.resolve(str('DATA_DIR') ?? './data');
  // Embedded PGlite has one session, which its socket server hands to one connection at a time
  // (whole exchanges, whole transactions): more connections in one process would only wait for
  // each other, so the embedded service talks to it over a single connection.
  config.dbPoolSize = int('DB_POOL_SIZE', config.databaseUrl === undefined ? 1 : 10, 1, 200);
  config.v8AllocationSitePretenuring = bool('V8_ALLOCATION_SITE_PRETENURING', false);
  config.v8HeapGrowingPercent = int('V8_HEAP_GROWING_PERCENT', 50, 0, 1_000);
  // In production the service's role must not own the tables (it could rewrite the audit trail), so
  // it migrates at start only as MIGRATION_DATABASE_URL's role; without that, `db migrate` runs as a
  // release step.
  config.migrateOnBoot = bool('MIGRATE_ON_BOOT', !config.production || config.migrationDatabaseUrl !== undefined);
  config.seedDemoCompany = bool('SEED_DEMO_COMPANY', config.databaseUrl === undefined);
  config.gatewayIssuer = str('GATEWAY_ISSUER') ?? 'agent-gateway';
  config.gatewayAudience = str('GATEWAY_AUDIENCE');
  config.gatewayJwks = str('GATEWAY_JWKS');
  if (config.gatewayJwks && /^[a-z]+:\/\//i.test(config.gatewayJwks)) {
    config.gatewayJwks = url('GATEWAY_JWKS', ['http:', 'https:']);
  }
  config.jwksRefreshSeconds = int('JWKS_REFRESH_SECONDS', 60, 1, 86_400);
  config.kekSource = str('KEK_SOURCE');
  config.kek = kekSettings(
    config.kekSource,
    config.dataDir,
    str('AWS_REGION'),
    url('AWS_ENDPOINT_URL', ['http:', 'https:']),
    problems,
  );
  const hasProviderCredentials = str('TRIPLETEX_CONSUMER_TOKEN') !== undefined || str('FIKEN_CLIENT_ID') !== undefined;
  config.providerSandbox = bool('PROVIDER_SANDBOX', !hasProviderCredentials);
  config.providerSandboxPort = int('PROVIDER_SANDBOX_PORT', 0, 0, 65535);
  config.tripletexConsumerToken = str('TRIPLETEX_CONSUMER_TOKEN');
  config.tripletexApiUrl = (url('TRIPLETEX_BASE_URL', ['http:', 'https:']) ?? 'https://tripletex.no/v2').replace(
    /\/+$/,
    '',
  );
  config.fikenClientId = str('FIKEN_CLIENT_ID');
  config.fikenClientSecret = str('FIKEN_CLIENT_SECRET');
  if ((config.fikenClientId === undefined) !== (config.fikenClientSecret === undefined)) {
    problems.push('FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET must be set together');
  }
  config.fikenApiUrl = (url('FIKEN_API_URL', ['http:', 'https:']) ?? 'https://api.fiken.no/api/v2').replace(/\/+$/, '');
  config.fikenOAuthUrl = (url('FIKEN_OAUTH_URL', ['http:', 'https:']) ?? 'https://fiken.no/oauth').replace(/\/+$/, '');
  config.fikenMaxConcurrentRequests = int('FIKEN_MAX_CONCURRENT_REQUESTS', 1, 1, 100);
  config.stateSecret = str('STATE_SECRET');
  if (config.stateSecret !== undefined && Buffer.byteLength(config.stateSecret) < 32) {
    problems.push('STATE_SECRET must be at least 32 characters (e.g. openssl rand -base64 48)');
  }
  config.providerTimeoutMs = int('PROVIDER_TIMEOUT_MS', 10_000, 100, 300_000);
  config.providerRetries = int('PROVIDER_RETRIES', 3, 0, 10);
  config.rateLimitPerMinute = int('RATE_LIMIT_PER_MINUTE', 300, 1, 10_000_000);
  config.redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  config.companyCacheTtlMs = int('COMPANY_CACHE_TTL_MS', 5_000, 0, 300_000);
  config.bodyLimitBytes = int('BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024);
  config.smallBodyLimitBytes = int('SMALL_BODY_LIMIT_BYTES', 64 * 1024, 1024, 100 * 1024 * 1024);
  config.httpRequestTimeoutMs = int('HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  config.httpHeadersTimeoutMs = int('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  config.httpKeepAliveTimeoutMs = int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000);
  if (config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  config.httpMaxConnections = int('HTTP_MAX_CONNECTIONS', 1_000, 1, 1_000_000);
  config.receiptMaxBytes = int('RECEIPT_MAX_BYTES', 7 * 1024 * 1024, 1024, 100 * 1024 * 1024);
  // The proposal submission must be able to carry the largest receipt (base64) and its other fields.
  const receiptBodyBytes = Math.ceil(config.receiptMaxBytes / 3) * 4 + 64 * 1024;
  if (config.bodyLimitBytes < receiptBodyBytes) {
    problems.push(`BODY_LIMIT_BYTES must be at least ${receiptBodyBytes} to carry a receipt of RECEIPT_MAX_BYTES`);
  }
  // A background job like the executor's: off by default under jest (NODE_ENV=test), where tests seal explicitly.
  config.eventSealIntervalMs = int('EVENT_SEAL_INTERVAL_MS', str('NODE_ENV') === 'test' ? 0 : 1000, 0, 3_600_000);
  config.idempotencyPurgeIntervalMs = int(
    'IDEMPOTENCY_PURGE_INTERVAL_MS',
    str('NODE_ENV') === 'test' ? 0 : 3_600_000,
    0,
    86_400_000,
  );
  const level = (str('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  }
  config.logLevel = (LOG_LEVELS as readonly string[]).includes(level) ? (level as AppConfig['logLevel']) : 'info';
  config.webhookSigningKey = str('WEBHOOK_SIGNING_KEY');
  if (config.webhookSigningKey !== undefined && Buffer.byteLength(config.webhookSigningKey) < 32) {
    problems.push('WEBHOOK_SIGNING_KEY must be at least 32 characters (e.g. openssl rand -base64 48)');
  }

  // The background jobs (on by default, off under jest's NODE_ENV=test), in the same report.
  const jobs = new EnvSettings(env, problems);
  const embedded = config.databaseUrl === undefined;
  config.executor = ExecutorSettings.read(jobs, embedded);
  config.dailyCheck = DailyCheckSettings.read(jobs, embedded);
  config.outboxDispatch = jobs.flag('OUTBOX_DISPATCH_ENABLED');
  config.outboxPollMs = jobs.int('OUTBOX_POLL_MS') ?? 1_000;

  if (config.production) {
    if (config.usesDevKeys)
      problems.push('GATEWAY_JWKS is required when NODE_ENV=production (dev keys are for development)');
    if (config.databaseUrl === undefined) problems.push('DATABASE_URL is required when NODE_ENV=production');
    if (config.migrateOnBoot && config.migrationDatabaseUrl === undefined) {
      problems.push(
        'MIGRATE_ON_BOOT=true needs MIGRATION_DATABASE_URL when NODE_ENV=production: the role in DATABASE_URL may ' +
          'only read and append to the audit trail, so it cannot migrate. Set MIGRATION_DATABASE_URL to the owning ' +
          'role, or MIGRATE_ON_BOOT=false and run `npm run cli -- db migrate` with it as a release step',
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * KEK_SOURCE: unset → a local keyring file `keyring.json` in DATA_DIR (development, embedded);
 * `local:<path>` → that keyring file; `aws-kms:<key id, ARN or alias>` → AWS KMS in AWS_REGION
 * (AWS_ENDPOINT_URL overrides the endpoint: a VPC endpoint, LocalStack).
 */
function kekSettings(
  source: string | undefined,
  dataDir: string,
  region: string | undefined,
  endpoint: string | undefined,
  problems: string[],
): KekSettings {
  const local: KekSettings = { kind: 'local', keyringPath: path.join(dataDir, 'keyring.json') };
  if (source === undefined) return local;
  if (source.startsWith('local:') && source.length > 'local:'.length) {
    return { kind: 'local', keyringPath: path.resolve(source.slice('local:'.length)) };
  }
  if (source.startsWith('aws-kms:') && source.length > 'aws-kms:'.length) {
    if (region === undefined) problems.push('AWS_REGION is required with KEK_SOURCE=aws-kms:<keyId>');
    return { kind: 'aws', keyId: source.slice('aws-kms:'.length), region: region ?? '', endpoint };
  }
  problems.push('KEK_SOURCE must be local:<keyring path> or aws-kms:<key id> (unset: a keyring in DATA_DIR)');
  return local;
}
