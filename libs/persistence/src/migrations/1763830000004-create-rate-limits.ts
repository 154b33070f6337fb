import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `rate_limits`: one row per rate-limited key (company + sub), the counter of its current window,
 * shared by every instance (PostgresThrottlerStorage). UNLOGGED: each request writes its row, and a
 * crash that forgets the counters forgets at most one window's worth of limiting. Rows whose window
 * and block are over are purged.
 */
export class CreateRateLimits1763830000004 implements MigrationInterface {
  name = 'CreateRateLimits1763830000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key             text PRIMARY KEY,
        hits            integer NOT NULL CHECK (hits >= 0),
        window_ends_at  timestamptz NOT NULL,
        blocked_until   timestamptz NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_limits');
  }
}
