import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Company settings (docs/api.md §5, GET/PUT /config/company) as one jsonb document per company:
 * the settings are always read and written whole, and new optional settings need no migration
 * (the adapter fills absent keys with the defaults). A company without a row has the defaults.
 */
export class CreateCompanySettings1763780000004 implements MigrationInterface {
  name = 'CreateCompanySettings1763780000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE company_settings (
        company_id  text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        settings    jsonb NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE company_settings');
  }
}
