import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `events (company_id, occurred_at, position)` in place of `(company_id, occurred_at)`: a time
 * window's positions are read from the index alone, so `GET /events?from=&to=` finds where its
 * window starts in the append order without visiting the rows before it (TypeOrmEventStore.list).
 */
export class IndexEventsByTimeAndPosition1764190000002 implements MigrationInterface {
  name = 'IndexEventsByTimeAndPosition1764190000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX events_company_occurred_position_idx ON events (company_id, occurred_at, position)');
    await q.query('DROP INDEX events_company_occurred_idx');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX events_company_occurred_idx ON events (company_id, occurred_at)');
    await q.query('DROP INDEX events_company_occurred_position_idx');
  }
}
