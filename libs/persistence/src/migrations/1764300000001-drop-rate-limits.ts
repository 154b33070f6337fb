import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rate limit's counters left PostgreSQL: they are kept in each instance's memory, or in Redis
 * with REDIS_URL, so that a request never costs a database round trip to be counted. `rate_limits`
 * held only counters of the current minute (UNLOGGED), so nothing of value is dropped.
 */
export class DropRateLimits1764300000001 implements MigrationInterface {
  name = 'DropRateLimits1764300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS rate_limits');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key             text PRIMARY KEY,
        hits            integer NOT NULL CHECK (hits >= 0),
        window_ends_at  timestamptz NOT NULL,
        blocked_until   timestamptz NULL
      )`);
  }
}
