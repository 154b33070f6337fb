import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Merchant patterns: merchant key → (account code, VAT rate), with approval counts and the amount
 * statistics (Welford: count, mean, m2, min, max in minor units) the ConfidenceEngine reads.
 *
 * Lookups that must stay fast with 100 000 patterns per company:
 * - exact key: the partial unique index on active (company_id, merchant_key, account_code,
 *   vat_rate), which also enforces "one active pattern per key, account and VAT rate";
 * - look-alikes: a partial GIN trigram index on active merchant keys (pg_trgm), used by the `%`
 *   operator; the company filter is applied to its (few) matches.
 * - listing: (company_id, created_at, id) for the keyset pages, (company_id, merchant_key) for
 *   the by-key filter that may include retired patterns.
 */
export class CreatePatterns1763780000003 implements MigrationInterface {
  name = 'CreatePatterns1763780000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await q.query(`
      CREATE TABLE patterns (
        id             text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
        company_id     text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        merchant_key   text NOT NULL CHECK (length(merchant_key) BETWEEN 1 AND 200),
        merchant_name  text NOT NULL,
        account_code   text NOT NULL,
        vat_rate       text NOT NULL,
        approvals      integer NOT NULL CHECK (approvals >= 0),
        amount_count   integer NOT NULL CHECK (amount_count >= 0),
        amount_mean    double precision NOT NULL,
        amount_m2      double precision NOT NULL,
        amount_min     bigint NULL,
        amount_max     bigint NULL,
        verified       boolean NOT NULL,
        version        integer NOT NULL CHECK (version >= 1),
        created_at     timestamptz NOT NULL,
        updated_at     timestamptz NOT NULL,
        retired_at     timestamptz NULL
      )`);
    await q.query(`
      CREATE UNIQUE INDEX patterns_active_key_key ON patterns (company_id, merchant_key, account_code, vat_rate)
        WHERE retired_at IS NULL`);
    await q.query(`
      CREATE INDEX patterns_active_key_trgm_idx ON patterns USING gin (merchant_key gin_trgm_ops)
        WHERE retired_at IS NULL`);
    await q.query('CREATE INDEX patterns_company_created_idx ON patterns (company_id, created_at, id)');
    await q.query('CREATE INDEX patterns_company_key_idx ON patterns (company_id, merchant_key)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE patterns');
  }
}
