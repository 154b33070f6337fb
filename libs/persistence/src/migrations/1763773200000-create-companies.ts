import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCompanies1763773200000 implements MigrationInterface {
  name = 'CreateCompanies1763773200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE companies (
        id          text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE companies');
  }
}
