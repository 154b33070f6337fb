import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `company_deletions`: the log of operators' company deletions (`company delete`). No foreign key:
 * a row outlives the company it names. Append-only like the events (the service's role gets
 * SELECT and INSERT only, database-roles.ts).
 */
export class CreateCompanyDeletions1764220000001 implements MigrationInterface {
  name = 'CreateCompanyDeletions1764220000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE company_deletions (
        id                 uuid PRIMARY KEY,
        company_id         text NOT NULL,
        company_name       text NOT NULL,
        actor              text NOT NULL CHECK (length(actor) BETWEEN 1 AND 200),
        deleted_at         timestamptz NOT NULL,
        audit_events_kept  integer NOT NULL CHECK (audit_events_kept >= 0)
      )`);
    await q.query('CREATE INDEX company_deletions_deleted_at ON company_deletions (deleted_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE company_deletions');
  }
}
