import type { MigrationInterface, QueryRunner } from 'typeorm';

const KIND = `'^[a-z][a-z0-9-]{0,31}$'`;
const TABLES = ['provider_connections', 'authorization_requests', 'company_context'] as const;

/**
 * Which accounting providers exist is the provider registry's to say (libs/providers/src/providers.ts),
 * not the schema's: the `provider IN ('tripletex', 'fiken')` checks become a check of the kind's
 * shape, so that registering a provider needs no migration.
 *
 * A connection's credentials were checked by provider (Tripletex: the employee token; Fiken: the
 * OAuth tokens); they are now checked by what they are, whichever provider holds them: either one
 * token (`employee_token`, a `token` provider's secret) or the OAuth tokens with their expiry.
 */
export class ProviderKindsFromRegistry1764260000001 implements MigrationInterface {
  name = 'ProviderKindsFromRegistry1764260000001';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_provider_check`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_provider_check CHECK (provider ~ ${KIND})`);
    }
    await q.query('ALTER TABLE provider_connections DROP CONSTRAINT provider_connections_credentials');
    await q.query(`
      ALTER TABLE provider_connections ADD CONSTRAINT provider_connections_credentials CHECK (
        (employee_token IS NOT NULL
           AND access_token IS NULL AND refresh_token IS NULL AND access_token_expires_at IS NULL)
        OR (employee_token IS NULL
           AND access_token IS NOT NULL AND refresh_token IS NOT NULL AND access_token_expires_at IS NOT NULL)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_provider_check`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_provider_check CHECK (provider IN ('tripletex', 'fiken'))`,
      );
    }
    await q.query('ALTER TABLE provider_connections DROP CONSTRAINT provider_connections_credentials');
    await q.query(`
      ALTER TABLE provider_connections ADD CONSTRAINT provider_connections_credentials CHECK (
        (provider = 'tripletex' AND employee_token IS NOT NULL
           AND access_token IS NULL AND refresh_token IS NULL AND access_token_expires_at IS NULL)
        OR (provider = 'fiken' AND employee_token IS NULL
           AND access_token IS NOT NULL AND refresh_token IS NOT NULL AND access_token_expires_at IS NOT NULL)
      )`);
  }
}
