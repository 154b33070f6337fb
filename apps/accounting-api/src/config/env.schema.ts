import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import {
  hasProviderCredentials,
  PROVIDERS,
  providerCredentialsHint,
  providerProblems,
  providerVariables,
  type AnyProviderDefinition,
  type ProviderEnv,
} from '@app/providers';

/**
 * Every environment variable the service, its CLI and its database connection read, in one zod
 * schema: the type of each value, its range, and (in `productionProblems`) what production
 * requires. `loadConfig` turns the result into the typed `AppConfig`; nothing else reads
 * `process.env`. A variable that is unset or blank is absent; defaults that depend on other
 * variables (the embedded database, NODE_ENV) are applied by `loadConfig`.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be an integer from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be an integer from ${min} to ${max}` })
        .max(max, { error: `must be an integer from ${min} to ${max}` }),
    )
    .optional();

const flag = () =>
  z
    .stringbool({
      truthy: ['1', 'true', 'on', 'yes'],
      falsy: ['0', 'false', 'off', 'no'],
      case: 'insensitive',
      error: 'must be true/false, on/off, yes/no or 1/0',
    })
    .optional();

const url = (protocols: readonly string[]) =>
  z
    .string()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { error: `must be a ${protocols.join(' or ')} URL` },
    )
    .optional();

const httpUrl = () => url(['http:', 'https:']).transform((value) => value?.replace(/\/+$/, ''));
const postgresUrl = () => url(['postgres:', 'postgresql:']);

/** A secret shared by every instance: long enough to be a key, never echoed. */
const secret = () =>
  z
    .string()
    .refine((value) => Buffer.byteLength(value) >= 32, {
      error: 'must be at least 32 characters (e.g. openssl rand -base64 48)',
    })
    .optional();

const text = () => z.string().optional();

/** A file path, or an http(s) URL (https in production: `productionProblems`). */
const jwksSource = () =>
  z
    .string()
    .refine((value) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^https?:\/\//i.test(value), {
      error: 'must be a file path or an http(s) URL',
    })
    .refine((value) => !/^https?:\/\//i.test(value) || URL.canParse(value), { error: 'is not a valid URL' })
    .optional();

const kekSource = () =>
  z
    .string()
    .regex(/^(local:.+|aws-kms:.+)$/, {
      error: 'must be local:<keyring path> or aws-kms:<key id, ARN or alias>',
    })
    .optional();

const envSchema = z.object({
  NODE_ENV: text(),
  PORT: int(0, 65_535),
  HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:%_-]+$/, {
      error: 'must be an address or host name to listen on (e.g. 127.0.0.1, 0.0.0.0, ::)',
    })
    .optional(),
  PUBLIC_URL: httpUrl(),
  DATABASE_URL: postgresUrl(),
  MIGRATION_DATABASE_URL: postgresUrl(),
  DATA_DIR: text(),
  DB_POOL_SIZE: int(1, 200),
  DB_WORKER_POOL_SIZE: int(1, 50),
  DB_CONNECT_TIMEOUT_MS: int(100, 60_000),
  DB_START_DEADLINE_MS: int(0, 600_000),
  SHUTDOWN_GRACE_MS: int(0, 600_000),
  MIGRATE_ON_BOOT: flag(),
  SEED_DEMO_COMPANY: flag(),
  HISTORY_IMPORT_ON_CONNECT: flag(),
  GATEWAY_ISSUER: text(),
  GATEWAY_AUDIENCE: text(),
  GATEWAY_JWKS: jwksSource(),
  JWKS_REFRESH_SECONDS: int(1, 86_400),
  KEK_SOURCE: kekSource(),
  AWS_REGION: text(),
  AWS_ENDPOINT_URL: httpUrl(),
  PROVIDER_SANDBOX: flag(),
  PROVIDER_SANDBOX_PORT: int(0, 65_535),
  STATE_SECRET: secret(),
  WEBHOOK_SIGNING_KEY: secret(),
  PROVIDER_TIMEOUT_MS: int(100, 300_000),
  PROVIDER_RETRIES: int(0, 10),
  RATE_LIMIT_PER_MINUTE: int(1, 10_000_000),
  REDIS_URL: url(['redis:', 'rediss:']),
  REDIS_TIMEOUT_MS: int(10, 10_000),
  COMPANY_CACHE_TTL_MS: int(0, 300_000),
  BODY_LIMIT_BYTES: int(1024, 100 * 1024 * 1024),
  SMALL_BODY_LIMIT_BYTES: int(1024, 100 * 1024 * 1024),
  HTTP_REQUEST_TIMEOUT_MS: int(100, 600_000),
  HTTP_HEADERS_TIMEOUT_MS: int(100, 600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(100, 600_000),
  HTTP_MAX_CONNECTIONS: int(1, 1_000_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: int(1, 1_000_000),
  RECEIPT_MAX_BYTES: int(1024, 100 * 1024 * 1024),
  EVENT_SEAL_INTERVAL_MS: int(0, 3_600_000),
  IDEMPOTENCY_PURGE_INTERVAL_MS: int(0, 86_400_000),
  LOG_LEVEL: z
    .string()
    .toLowerCase()
    .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }))
    .optional(),
  LOG_FORMAT: z
    .string()
    .toLowerCase()
    .pipe(z.enum(['json', 'pretty'], { error: 'must be json or pretty' }))
    .optional(),
  // The background jobs: on by default, off by default under jest (NODE_ENV=test).
  EXECUTOR_ENABLED: flag(),
  EXECUTOR_POLL_MS: int(1),
  EXECUTOR_BATCH_SIZE: int(1),
  EXECUTOR_CONCURRENCY: int(1),
  EXECUTOR_LEASE_MS: int(1),
  EXECUTOR_RETRY_BASE_MS: int(1),
  EXECUTOR_RETRY_MAX_MS: int(1),
  EXECUTOR_MAX_TRANSIENT_ATTEMPTS: int(1),
  EXECUTOR_FAILED_RETRY_MS: int(1),
  EXECUTOR_RECONCILE_PAUSE_MS: int(1),
  EXECUTOR_RATE_LIMIT_WAIT_MS: int(1),
  DAILY_CHECK_ENABLED: flag(),
  DAILY_CHECK_LOOKBACK_DAYS: int(1),
  DAILY_CHECK_ITEMS_PER_MESSAGE: int(0),
  DAILY_CHECK_SERIAL: flag(),
  DAILY_CHECK_LEASE_MS: int(1),
  DAILY_CHECK_RETRY_MS: int(1),
  DAILY_CHECK_MAX_ATTEMPTS: int(1),
  OUTBOX_DISPATCH_ENABLED: flag(),
  DEVELOPMENT_CHANNEL: flag(),
  OUTBOX_POLL_MS: int(1),
  OUTBOX_LEASE_MS: int(1),
});

/** How many companies of `kind` the daily check runs at once (daily-check.settings.ts): DAILY_CHECK_CONCURRENCY_FIKEN. */
export function dailyCheckConcurrencyVariable(kind: string): string {
  return `DAILY_CHECK_CONCURRENCY_${kind.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The whole schema: the service's own variables above, and those each registered provider declares
 * in its definition (`ProviderDefinition.config`), with a daily-check concurrency for each kind.
 */
function schemaOf(definitions: readonly AnyProviderDefinition[]) {
  const concurrency = definitions.map((definition) => [dailyCheckConcurrencyVariable(definition.kind), int(1)]);
  const extra = { ...providerVariables(definitions), ...Object.fromEntries(concurrency) };
  // Typed as the service's own variables; the providers read theirs by name (`Env.variables`).
  return envSchema.extend(extra as Record<never, never>);
}

/** Every variable the schema reads (the README's configuration table lists exactly these). */
export const ENV_VARIABLES: readonly string[] = Object.keys(schemaOf(PROVIDERS).shape);

/**
 * The environment as the schema types it: every key optional, absent when unset or blank; the
 * providers' variables (and every other) by name in `variables`.
 */
export type Env = z.output<typeof envSchema> & { readonly variables: ProviderEnv };

/** The variables the schema knows, trimmed, without the unset and blank ones. */
function presentVariables(schema: z.ZodObject, env: Record<string, string | undefined>): Record<string, string> {
  const present: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key]?.trim();
    if (value !== undefined && value !== '') present[key] = value;
  }
  return present;
}

/**
 * Parses the environment. Returns the typed values and every problem found — each bad variable,
 * the combinations that do not go together and, with NODE_ENV=production, everything production
 * requires — so that one start-up reports all of them. Values are never echoed: some are secrets.
 * `definitions`: the registered providers, whose variables are part of the environment.
 */
export function parseEnv(
  raw: Record<string, string | undefined>,
  definitions: readonly AnyProviderDefinition[] = PROVIDERS,
): { env: Env; problems: string[] } {
  const schema = schemaOf(definitions);
  const present = presentVariables(schema, raw);
  const parsed = schema.safeParse(present);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
  // With a bad variable the valid ones are still parsed, so that the checks below see them.
  const data = parsed.success ? parsed.data : parseValidOnes(schema, present);
  const env: Env = { ...data, variables: data as ProviderEnv };
  problems.push(...combinationProblems(env), ...providerProblems(definitions, env.variables));
  if (env.NODE_ENV === 'production') {
    problems.push(...productionProblems(env, new Set(Object.keys(present)), definitions));
  }
  return { env, problems };
}

function parseValidOnes(schema: z.ZodObject, present: Record<string, string>): z.output<typeof envSchema> {
  const valid: Record<string, string> = {};
  for (const [key, value] of Object.entries(present)) {
    const field = schema.shape[key];
    if (field?.safeParse(value).success) valid[key] = value;
  }
  return schema.parse(valid) as z.output<typeof envSchema>;
}

function combinationProblems(env: Env): string[] {
  const problems: string[] = [];
  if (env.MIGRATION_DATABASE_URL !== undefined && env.DATABASE_URL === undefined) {
    problems.push('MIGRATION_DATABASE_URL needs DATABASE_URL (the embedded database has a single role)');
  }
  if ((env.HTTP_HEADERS_TIMEOUT_MS ?? 10_000) > (env.HTTP_REQUEST_TIMEOUT_MS ?? 30_000)) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  // One client address must not be able to take every connection: the others, and the orchestrator's
  // liveness probe, need room.
  if ((env.HTTP_MAX_CONNECTIONS_PER_ADDRESS ?? 100) >= (env.HTTP_MAX_CONNECTIONS ?? 1_000)) {
    problems.push('HTTP_MAX_CONNECTIONS_PER_ADDRESS must be less than HTTP_MAX_CONNECTIONS');
  }
  // The proposal submission must be able to carry the largest receipt (base64) and its other fields.
  const receiptBodyBytes = Math.ceil((env.RECEIPT_MAX_BYTES ?? 7 * 1024 * 1024) / 3) * 4 + 64 * 1024;
  if ((env.BODY_LIMIT_BYTES ?? 10 * 1024 * 1024) < receiptBodyBytes) {
    problems.push(`BODY_LIMIT_BYTES must be at least ${receiptBodyBytes} to carry a receipt of RECEIPT_MAX_BYTES`);
  }
  if (env.KEK_SOURCE?.startsWith('aws-kms:') && env.AWS_REGION === undefined) {
    problems.push('AWS_REGION is required with KEK_SOURCE=aws-kms:<keyId>');
  }
  return problems;
}

/**
 * What production requires, in one place. Development runs with none of it (dev keys, a keyring
 * and secrets generated into DATA_DIR, the sandboxes); in production each of these is a refusal to
 * start, because a default would be wrong there: a second instance with its own DATA_DIR could not
 * open the first one's sealed secrets, and a sandbox would answer for a real ledger.
 */
function productionProblems(
  env: Env,
  present: ReadonlySet<string>,
  definitions: readonly AnyProviderDefinition[],
): string[] {
  const problems: string[] = [];
  // A variable that is set but invalid has its own problem already.
  const required = (key: keyof Env, why: string) => {
    if (!present.has(key)) problems.push(`${key} is required when NODE_ENV=production: ${why}`);
  };
  required('DATABASE_URL', 'the embedded database is for development');
  required('GATEWAY_JWKS', "the gateway's public keys, a file or an https URL (dev keys are for development)");
  required(
    'GATEWAY_AUDIENCE',
    "this service's name in the tokens' aud claim; without it a token the gateway minted for another service is accepted",
  );
  if (env.GATEWAY_JWKS !== undefined) {
    if (/^http:\/\//i.test(env.GATEWAY_JWKS)) {
      problems.push('GATEWAY_JWKS must be an https URL or a file when NODE_ENV=production (not http)');
    } else if (!/^https:\/\//i.test(env.GATEWAY_JWKS) && !fs.existsSync(env.GATEWAY_JWKS)) {
      problems.push(`GATEWAY_JWKS names a file that does not exist: ${path.resolve(env.GATEWAY_JWKS)}`);
    }
  }
  required(
    'KEK_SOURCE',
    'the key-encryption key every instance shares (aws-kms:<key> or local:<keyring path>); no keyring is generated in production',
  );
  if (env.KEK_SOURCE?.startsWith('local:')) {
    const keyring = path.resolve(env.KEK_SOURCE.slice('local:'.length));
    if (!fs.existsSync(keyring)) {
      problems.push(
        `KEK_SOURCE names a keyring that does not exist: ${keyring} (production does not generate one; ` +
          'docs/operations.md, "Production setup", shows how to create it once and share it)',
      );
    }
  }
  required('STATE_SECRET', 'the key that signs onboarding states, the same on every instance');
  required('WEBHOOK_SIGNING_KEY', "the key the companies' webhook secrets derive from, the same on every instance");
  if (env.PROVIDER_SANDBOX !== true && !hasProviderCredentials(definitions, env.variables)) {
    problems.push(
      `provider credentials are required when NODE_ENV=production: ${providerCredentialsHint(definitions)} ` +
        '(the built-in sandboxes run in production only with PROVIDER_SANDBOX=true)',
    );
  }
  const migrateOnBoot = env.MIGRATE_ON_BOOT ?? env.MIGRATION_DATABASE_URL !== undefined;
  if (migrateOnBoot && env.MIGRATION_DATABASE_URL === undefined) {
    problems.push(
      'MIGRATE_ON_BOOT=true needs MIGRATION_DATABASE_URL when NODE_ENV=production: the role in DATABASE_URL may ' +
        'only read and append to the audit trail, so it cannot migrate. Set MIGRATION_DATABASE_URL to the owning ' +
        'role, or MIGRATE_ON_BOOT=false and run `npm run cli -- db migrate` with it as a release step',
    );
  }
  return problems;
}
