import * as path from 'node:path';

/**
 * The service's configuration, read from the environment once at boot (contract §5). Every bad
 * variable is reported together; the rest of the code receives this typed, injectable object.
 */
export class AppConfig {
  /** HTTP port. */
  port!: number;
  /** Origin under which the service is reachable, for links it hands out (OAuth redirect, docs). */
  publicUrl!: string;
  /** PostgreSQL URL; undefined → embedded PostgreSQL (PGlite) under dataDir. */
  databaseUrl?: string;
  dataDir!: string;
  dbPoolSize!: number;
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
  providerSandbox!: boolean;
  rateLimitPerMinute!: number;
  bodyLimitBytes!: number;
  receiptMaxBytes!: number;
  logLevel!: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production!: boolean;

  /** The JWKS the guard trusts: the configured one or the dev key set. */
  get jwksSource(): string {
    return this.gatewayJwks ?? devJwksPath(this.dataDir);
  }

  get usesDevKeys(): boolean {
    return this.gatewayJwks === undefined;
  }
}

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
  config.dataDir = path.resolve(str('DATA_DIR') ?? './data');
  config.dbPoolSize = int('DB_POOL_SIZE', 10, 1, 200);
  config.migrateOnBoot = bool('MIGRATE_ON_BOOT', true);
  config.seedDemoCompany = bool('SEED_DEMO_COMPANY', config.databaseUrl === undefined);
  config.gatewayIssuer = str('GATEWAY_ISSUER') ?? 'agent-gateway';
  config.gatewayAudience = str('GATEWAY_AUDIENCE');
  config.gatewayJwks = str('GATEWAY_JWKS');
  if (config.gatewayJwks && /^[a-z]+:\/\//i.test(config.gatewayJwks)) {
    config.gatewayJwks = url('GATEWAY_JWKS', ['http:', 'https:']);
  }
  config.jwksRefreshSeconds = int('JWKS_REFRESH_SECONDS', 60, 1, 86_400);
  config.kekSource = str('KEK_SOURCE');
  const hasProviderCredentials =
    str('TRIPLETEX_CONSUMER_TOKEN') !== undefined || str('FIKEN_CLIENT_ID') !== undefined;
  config.providerSandbox = bool('PROVIDER_SANDBOX', !hasProviderCredentials);
  config.rateLimitPerMinute = int('RATE_LIMIT_PER_MINUTE', 300, 1, 10_000_000);
  config.bodyLimitBytes = int('BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024);
  config.receiptMaxBytes = int('RECEIPT_MAX_BYTES', 7 * 1024 * 1024, 1024, 100 * 1024 * 1024);
  const level = (str('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${level}")`);
  }
  config.logLevel = (LOG_LEVELS as readonly string[]).includes(level) ? (level as AppConfig['logLevel']) : 'info';

  if (config.production) {
    if (config.usesDevKeys) problems.push('GATEWAY_JWKS is required when NODE_ENV=production (dev keys are for development)');
    if (config.databaseUrl === undefined) problems.push('DATABASE_URL is required when NODE_ENV=production');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
