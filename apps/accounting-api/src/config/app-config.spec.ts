import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROVIDERS } from '@app/providers';
import { kassebok } from '@app/testing';
import { DailyCheckSettings } from '../daily-check/daily-check.settings';
import { ConfigError, loadConfig } from './app-config';
import { ENV_VARIABLES, parseEnv } from './env.schema';

/** The problems loadConfig reports for `env` (none: []). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'app-config-'));
const jwksFile = path.join(directory, 'jwks.json');
const keyringFile = path.join(directory, 'keyring.json');
fs.writeFileSync(jwksFile, '{"keys":[]}');
fs.writeFileSync(keyringFile, '{}', { mode: 0o600 });
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

/** Everything production requires, with the given changes (undefined: unset). */
function production(changes: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://app@h/db',
    GATEWAY_JWKS: jwksFile,
    GATEWAY_AUDIENCE: 'accounting-api',
    KEK_SOURCE: `local:${keyringFile}`,
    STATE_SECRET: 's'.repeat(32),
    WEBHOOK_SIGNING_KEY: 'w'.repeat(32),
    TRIPLETEX_CONSUMER_TOKEN: 'consumer-token',
    ...changes,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

describe('configuration', () => {
  it('applies the contract defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      dataDir: path.resolve('./data'),
      gatewayIssuer: 'agent-gateway',
      gatewayAudience: undefined,
      gatewayJwks: undefined,
      providerSandbox: true,
      rateLimitPerMinute: 300,
      bodyLimitBytes: 10 * 1024 * 1024,
      receiptMaxBytes: 7 * 1024 * 1024,
      seedDemoCompany: true,
      migrateOnBoot: true,
    });
    expect(config.usesDevKeys).toBe(true);
    expect(config.jwksSource).toBe(path.resolve('./data/dev-keys/jwks.json'));
  });

  it('reports every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        RATE_LIMIT_PER_MINUTE: '-1',
        LOG_LEVEL: 'loud',
        PROVIDER_SANDBOX: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const key of ['PORT', 'DATABASE_URL', 'RATE_LIMIT_PER_MINUTE', 'LOG_LEVEL', 'PROVIDER_SANDBOX']) {
      expect(problems).toContain(key);
    }
    expect((error as ConfigError).problems).toHaveLength(5);
  });

  it('turns the sandbox off by default when provider credentials are configured', () => {
    expect(loadConfig({ TRIPLETEX_CONSUMER_TOKEN: 'abc' }).providerSandbox).toBe(false);
    expect(loadConfig({ TRIPLETEX_CONSUMER_TOKEN: 'abc', PROVIDER_SANDBOX: 'on' }).providerSandbox).toBe(true);
  });

  describe("the providers' variables, declared by each provider's definition", () => {
    // Kassebok, the test kit's provider, registered by one line: nothing in this app names it.
    const withKassebok = [...PROVIDERS, kassebok];

    it('are validated with the rest of the environment, every bad one reported at once', () => {
      const { problems } = parseEnv(
        {
          PORT: 'eighty',
          FIKEN_MAX_CONCURRENT_REQUESTS: '0',
          TRIPLETEX_BASE_URL: 'ftp://tripletex',
          KASSEBOK_AUTHORIZE_URL: 'not a url',
          KASSEBOK_CLIENT_ID: 'client',
          DAILY_CHECK_CONCURRENCY_KASSEBOK: 'many',
        },
        withKassebok,
      );
      expect(problems).toEqual([
        expect.stringMatching(/^PORT /),
        'TRIPLETEX_BASE_URL must be a http: or https: URL',
        'FIKEN_MAX_CONCURRENT_REQUESTS must be an integer from 1 to 100',
        expect.stringMatching(/^KASSEBOK_AUTHORIZE_URL must be a http: or https: URL/),
        expect.stringMatching(/^DAILY_CHECK_CONCURRENCY_KASSEBOK must be an integer/),
        // Its own combination check sees that the (bad) consent URL is absent.
        'KASSEBOK_CLIENT_ID needs KASSEBOK_AUTHORIZE_URL',
      ]);
    });

    it("are read by name, with each kind's daily-check concurrency", () => {
      const { env, problems } = parseEnv(
        { KASSEBOK_AUTHORIZE_URL: 'https://kassebok.test/oauth/', DAILY_CHECK_CONCURRENCY_KASSEBOK: '3' },
        withKassebok,
      );
      expect(problems).toEqual([]);
      expect(env.variables.KASSEBOK_AUTHORIZE_URL).toBe('https://kassebok.test/oauth');
      expect(env.variables.DAILY_CHECK_CONCURRENCY_KASSEBOK).toBe(3);
      // Unregistered, its variables are not part of the environment.
      expect(parseEnv({ KASSEBOK_CLIENT_ID: 'client' }).env.variables.KASSEBOK_CLIENT_ID).toBeUndefined();
      expect(ENV_VARIABLES).not.toContain('KASSEBOK_CLIENT_ID');
    });

    it("count as production's provider credentials", () => {
      const env = production({ TRIPLETEX_CONSUMER_TOKEN: undefined });
      const refused = parseEnv(env, withKassebok).problems;
      expect(refused).toEqual([
        expect.stringContaining(
          'TRIPLETEX_CONSUMER_TOKEN, or FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET, or KASSEBOK_CLIENT_ID',
        ),
      ]);
      const accepted = parseEnv(
        { ...env, KASSEBOK_CLIENT_ID: 'client', KASSEBOK_AUTHORIZE_URL: 'https://kassebok.test/oauth' },
        withKassebok,
      );
      expect(accepted.problems).toEqual([]);
    });

    it('give each registered kind its daily-check concurrency', () => {
      const { env } = parseEnv({ DAILY_CHECK_CONCURRENCY_FIKEN: '2', DAILY_CHECK_CONCURRENCY_TRIPLETEX: '7' });
      const { concurrency } = DailyCheckSettings.read(env, { jobsByDefault: false }).options;
      expect(concurrency).toMatchObject({ fiken: 2, tripletex: 7 });
    });

    it('give each registered kind its definition’s daily-check concurrency when none is configured', () => {
      const { concurrency } = DailyCheckSettings.read(parseEnv({}).env, { jobsByDefault: false }).options;
      expect(concurrency).toEqual({ tripletex: 16, fiken: 200, none: 2 });
    });
  });

  it('seals events every second by default, not at all with EVENT_SEAL_INTERVAL_MS=0 or under jest, and refuses a bad interval', () => {
    expect(loadConfig({}).eventSealIntervalMs).toBe(1000);
    expect(loadConfig({ EVENT_SEAL_INTERVAL_MS: '0' }).eventSealIntervalMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test' }).eventSealIntervalMs).toBe(0);
    expect(() => loadConfig({ EVENT_SEAL_INTERVAL_MS: 'soon' })).toThrow(/EVENT_SEAL_INTERVAL_MS/);
  });

  it('caps connections per client address below the connections of the instance', () => {
    expect(loadConfig({})).toMatchObject({ httpMaxConnections: 1000, httpMaxConnectionsPerAddress: 100 });
    expect(loadConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '999' }).httpMaxConnectionsPerAddress).toBe(999);
    expect(problemsOf({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '1000' })).toEqual([
      'HTTP_MAX_CONNECTIONS_PER_ADDRESS must be less than HTTP_MAX_CONNECTIONS',
    ]);
    expect(problemsOf({ HTTP_MAX_CONNECTIONS: '50' })).toEqual([
      'HTTP_MAX_CONNECTIONS_PER_ADDRESS must be less than HTTP_MAX_CONNECTIONS',
    ]);
  });

  it('does not seed the demo company on real PostgreSQL unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).seedDemoCompany).toBe(false);
  });

  it('accepts a JWKS file path or an http(s) URL, and refuses other URLs', () => {
    expect(loadConfig({ GATEWAY_JWKS: '/etc/gateway/jwks.json' }).usesDevKeys).toBe(false);
    expect(loadConfig({ GATEWAY_JWKS: 'https://gw.example/jwks.json' }).jwksSource).toBe(
      'https://gw.example/jwks.json',
    );
    expect(() => loadConfig({ GATEWAY_JWKS: 'ftp://gw.example/jwks.json' })).toThrow(/GATEWAY_JWKS/);
  });

  describe('in production (NODE_ENV=production)', () => {
    it('starts with everything production requires, without the sandboxes', () => {
      const config = loadConfig(production());
      expect(config).toMatchObject({ production: true, providerSandbox: false, migrateOnBoot: false });
      expect(config.kek).toEqual({ kind: 'local', keyringPath: keyringFile });
    });

    it('refuses to start with development defaults, listing every missing item at once', () => {
      const problems = problemsOf({ NODE_ENV: 'production' });
      for (const missing of [
        /^DATABASE_URL is required/,
        /^GATEWAY_JWKS is required/,
        /^GATEWAY_AUDIENCE is required/,
        /^KEK_SOURCE is required/,
        /^STATE_SECRET is required/,
        /^WEBHOOK_SIGNING_KEY is required/,
        /^provider credentials are required/,
      ]) {
        expect(problems).toContainEqual(expect.stringMatching(missing));
      }
      expect(problems).toHaveLength(7);
    });

    it.each(['DATABASE_URL', 'GATEWAY_JWKS', 'GATEWAY_AUDIENCE', 'KEK_SOURCE', 'STATE_SECRET', 'WEBHOOK_SIGNING_KEY'])(
      'refuses to start without %s',
      (key) => {
        expect(problemsOf(production({ [key]: undefined }))).toEqual([
          expect.stringMatching(new RegExp(`^${key} is required when NODE_ENV=production`)),
        ]);
      },
    );

    it('takes the gateway JWKS from a file that exists or an https URL, never http', () => {
      expect(problemsOf(production({ GATEWAY_JWKS: 'https://gateway.example/jwks.json' }))).toEqual([]);
      expect(problemsOf(production({ GATEWAY_JWKS: 'http://gateway.example/jwks.json' }))).toEqual([
        expect.stringMatching(/^GATEWAY_JWKS must be an https URL or a file/),
      ]);
      expect(problemsOf(production({ GATEWAY_JWKS: path.join(directory, 'missing.json') }))).toEqual([
        expect.stringMatching(/^GATEWAY_JWKS names a file that does not exist/),
      ]);
    });

    it('never generates a keyring: a local keyring must exist; a KMS key needs its region', () => {
      expect(problemsOf(production({ KEK_SOURCE: `local:${path.join(directory, 'none.json')}` }))).toEqual([
        expect.stringMatching(/^KEK_SOURCE names a keyring that does not exist/),
      ]);
      expect(problemsOf(production({ KEK_SOURCE: 'aws-kms:alias/accounting', AWS_REGION: 'eu-north-1' }))).toEqual([]);
      expect(problemsOf(production({ KEK_SOURCE: 'aws-kms:alias/accounting' }))).toEqual([
        'AWS_REGION is required with KEK_SOURCE=aws-kms:<keyId>',
      ]);
    });

    it('refuses short secrets without echoing them', () => {
      const problems = problemsOf(production({ STATE_SECRET: 'short-state', WEBHOOK_SIGNING_KEY: 'short-hook' }));
      expect(problems).toEqual([
        expect.stringMatching(/^STATE_SECRET must be at least 32 characters/),
        expect.stringMatching(/^WEBHOOK_SIGNING_KEY must be at least 32 characters/),
      ]);
      expect(problems.join('\n')).not.toMatch(/short-state|short-hook/);
    });

    it('needs provider credentials, or the sandboxes asked for explicitly', () => {
      const none = { TRIPLETEX_CONSUMER_TOKEN: undefined };
      expect(problemsOf(production(none))).toEqual([expect.stringMatching(/^provider credentials are required/)]);
      expect(problemsOf(production({ ...none, FIKEN_CLIENT_ID: 'id', FIKEN_CLIENT_SECRET: 'secret' }))).toEqual([]);
      expect(loadConfig(production({ ...none, PROVIDER_SANDBOX: 'true' })).providerSandbox).toBe(true);
      expect(problemsOf(production({ ...none, PROVIDER_SANDBOX: 'false' }))).toHaveLength(1);
    });
  });

  describe('the migration role (MIGRATION_DATABASE_URL) and MIGRATE_ON_BOOT', () => {
    it('migrates at start by default in development, as the one role there is', () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toMatchObject({
        migrateOnBoot: true,
        migrationDatabaseUrl: undefined,
      });
    });

    it('does not migrate at start in production unless a migration role is configured', () => {
      expect(loadConfig(production()).migrateOnBoot).toBe(false);
      expect(loadConfig({ ...production(), MIGRATION_DATABASE_URL: 'postgres://owner@h/db' })).toMatchObject({
        migrateOnBoot: true,
        migrationDatabaseUrl: 'postgres://owner@h/db',
      });
      expect(
        loadConfig({ ...production(), MIGRATION_DATABASE_URL: 'postgres://owner@h/db', MIGRATE_ON_BOOT: 'false' })
          .migrateOnBoot,
      ).toBe(false);
    });

    it('refuses MIGRATE_ON_BOOT=true in production without a migration role, and a migration role without DATABASE_URL', () => {
      expect(() => loadConfig({ ...production(), MIGRATE_ON_BOOT: 'true' })).toThrow(
        /MIGRATE_ON_BOOT=true needs MIGRATION_DATABASE_URL/,
      );
      expect(() => loadConfig({ MIGRATION_DATABASE_URL: 'postgres://owner@h/db' })).toThrow(
        /MIGRATION_DATABASE_URL needs DATABASE_URL/,
      );
      expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', MIGRATION_DATABASE_URL: 'mysql://x' })).toThrow(
        /MIGRATION_DATABASE_URL must be a postgres: or postgresql: URL/,
      );
    });
  });
});

describe("the README's configuration table", () => {
  it('lists exactly the variables the schema reads', () => {
    const readme = fs.readFileSync(path.join(__dirname, '../../../../README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## The CLI'));
    const firstColumns = table
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1]);
    const documented = firstColumns.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    // AWS_REGION and AWS_ENDPOINT_URL are documented with KEK_SOURCE, which needs them.
    const withKek = ['AWS_REGION', 'AWS_ENDPOINT_URL'];
    expect([...documented, ...withKek].sort()).toEqual([...ENV_VARIABLES].sort());
  });
});
