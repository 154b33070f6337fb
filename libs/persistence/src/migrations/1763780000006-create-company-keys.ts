import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each company's data encryption key, wrapped by the key encryption key named by `kek_id`
 * (@app/vault). Deleting a company deletes its DEK (ON DELETE CASCADE), which makes every token
 * sealed for it unreadable for good. Nothing here is secret without the KMS.
 */
export class CreateCompanyKeys1763780000006 implements MigrationInterface {
  name = 'CreateCompanyKeys1763780000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE company_keys (
        company_id   text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        wrapped_dek  bytea NOT NULL CHECK (length(wrapped_dek) > 0),
        kek_id       text NOT NULL CHECK (length(kek_id) BETWEEN 1 AND 200),
        created_at   timestamptz NOT NULL DEFAULT now(),
        rotated_at   timestamptz NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE company_keys');
  }
}
