import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `companies.deleted_at`: a company deleted while it has audit events keeps its record (the events
 * reference it) but is marked deleted, so that its tokens are refused like those of a company that
 * no longer exists.
 */
export class CompanyDeletedAt1764200000001 implements MigrationInterface {
  name = 'CompanyDeletedAt1764200000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE companies ADD COLUMN deleted_at timestamptz NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE companies DROP COLUMN deleted_at');
  }
}
