import * as path from 'node:path';
import { ConfigError, loadConfig } from './app-config';

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

  it('seals events every second by default, not at all with EVENT_SEAL_INTERVAL_MS=0 or under jest, and refuses a bad interval', () => {
    expect(loadConfig({}).eventSealIntervalMs).toBe(1000);
    expect(loadConfig({ EVENT_SEAL_INTERVAL_MS: '0' }).eventSealIntervalMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test' }).eventSealIntervalMs).toBe(0);
    expect(() => loadConfig({ EVENT_SEAL_INTERVAL_MS: 'soon' })).toThrow(/EVENT_SEAL_INTERVAL_MS/);
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

  it('refuses development defaults in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /GATEWAY_JWKS is required[\s\S]*DATABASE_URL is required/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', GATEWAY_JWKS: '/keys.json', DATABASE_URL: 'postgres://u@h/db' }),
    ).not.toThrow();
  });

  describe('the migration role (MIGRATION_DATABASE_URL) and MIGRATE_ON_BOOT', () => {
    const production = { NODE_ENV: 'production', GATEWAY_JWKS: '/keys.json', DATABASE_URL: 'postgres://app@h/db' };

    it('migrates at start by default in development, as the one role there is', () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' })).toMatchObject({
        migrateOnBoot: true,
        migrationDatabaseUrl: undefined,
      });
    });

    it('does not migrate at start in production unless a migration role is configured', () => {
      expect(loadConfig(production).migrateOnBoot).toBe(false);
      expect(loadConfig({ ...production, MIGRATION_DATABASE_URL: 'postgres://owner@h/db' })).toMatchObject({
        migrateOnBoot: true,
        migrationDatabaseUrl: 'postgres://owner@h/db',
      });
      expect(
        loadConfig({ ...production, MIGRATION_DATABASE_URL: 'postgres://owner@h/db', MIGRATE_ON_BOOT: 'false' })
          .migrateOnBoot,
      ).toBe(false);
    });

    it('refuses MIGRATE_ON_BOOT=true in production without a migration role, and a migration role without DATABASE_URL', () => {
      expect(() => loadConfig({ ...production, MIGRATE_ON_BOOT: 'true' })).toThrow(
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
