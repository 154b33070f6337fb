import type { MigrationInterface, QueryRunner } from 'typeorm';

/** GET /proposals without a status: the company's proposals in submission order, read by keyset. */
export class ProposalsListIndex1764310000001 implements MigrationInterface {
  name = 'ProposalsListIndex1764310000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX proposals_company_submitted_idx ON proposals (company_id, submitted_at, id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX proposals_company_submitted_idx');
  }
}
