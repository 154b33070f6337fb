import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The company record's provider side (spec §2.5 and "Token storage"):
 *
 * - `provider_connections`: one row per company (a company books into one provider). Tokens are
 *   sealed with the company's DEK (TokenVault, AES-256-GCM, additional data binding company,
 *   provider and purpose) and stored as `bytea`; nothing here is readable without the KEK.
 *   Tripletex rows hold the employee token (the consumer token is the application's and lives in
 *   its configuration); Fiken rows hold the access and refresh tokens and the access token's expiry.
 * - `authorization_requests`: pending onboardings, one per signed OAuth `state`, deleted when the
 *   callback consumes them (single use) and purged once expired.
 * - `company_context`: the chart fetched from the provider at onboarding (accounts, departments,
 *   VAT types, employees) as one jsonb snapshot.
 */
export class CreateProviderConnections1763790000001 implements MigrationInterface {
  name = 'CreateProviderConnections1763790000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_connections (
        company_id              text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        provider                text NOT NULL CHECK (provider IN ('tripletex', 'fiken')),
        status                  text NOT NULL CHECK (status IN ('connected', 'needs_reauthorization')),
        external_company_id     text NULL,
        external_company_name   text NULL,
        employee_token          bytea NULL,
        access_token            bytea NULL,
        refresh_token           bytea NULL,
        access_token_expires_at timestamptz NULL,
        reauthorization_reason  text NULL,
        connected_by            text NOT NULL,
        connected_at            timestamptz NOT NULL,
        updated_at              timestamptz NOT NULL,
        CONSTRAINT provider_connections_credentials CHECK (
          (provider = 'tripletex' AND employee_token IS NOT NULL
             AND access_token IS NULL AND refresh_token IS NULL AND access_token_expires_at IS NULL)
          OR (provider = 'fiken' AND employee_token IS NULL
             AND access_token IS NOT NULL AND refresh_token IS NOT NULL AND access_token_expires_at IS NOT NULL)
        )
      )`);
    await q.query(`
      CREATE TABLE authorization_requests (
        nonce       text PRIMARY KEY CHECK (length(nonce) BETWEEN 16 AND 128),
        company_id  text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        provider    text NOT NULL CHECK (provider IN ('tripletex', 'fiken')),
        actor       text NOT NULL,
        expires_at  timestamptz NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX authorization_requests_expires_at ON authorization_requests (expires_at)');
    await q.query(`
      CREATE TABLE company_context (
        company_id  text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        provider    text NOT NULL CHECK (provider IN ('tripletex', 'fiken')),
        snapshot    jsonb NOT NULL CHECK (jsonb_typeof(snapshot) = 'object'),
        fetched_at  timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE company_context');
    await q.query('DROP TABLE authorization_requests');
    await q.query('DROP TABLE provider_connections');
  }
}
