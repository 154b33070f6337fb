import type { ThrottlerStorage } from '@nestjs/throttler';
import type { DataSource } from 'typeorm';
import { execute, select, toNumber } from '../shared/sql';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface HitRow {
  hits: number | string;
  seconds_to_expire: number | string;
  seconds_blocked: number | string | null;
}

/**
 * One hit of a key, in one statement. The key's row is in one of three states, and each column is
 * updated by the same three cases in the same order:
 * - blocked (`blocked_until` in the future): nothing is counted, the block runs on;
 * - afresh (a block or a window that is over): this hit opens a new window, counted 1;
 * - counting: the hit is counted in the current window; the hit past the limit blocks the key
 *   for the block duration.
 * A key without a row starts afresh (the VALUES). The row's lock serialises concurrent hits of one
 * key across instances. Every time is the database's, so instances need not agree on the time.
 * $1 key, $2 ttl ms, $3 limit, $4 block duration ms.
 */
const HIT_SQL = `
  INSERT INTO rate_limits AS r (key, hits, window_ends_at, blocked_until)
  VALUES ($1, 1, now() + $2 * interval '1 millisecond',
          CASE WHEN 1 > $3 THEN now() + $4 * interval '1 millisecond' END)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE
      WHEN r.blocked_until > now() THEN r.hits
      WHEN r.blocked_until IS NOT NULL OR r.window_ends_at <= now() THEN EXCLUDED.hits
      ELSE r.hits + 1 END,
    window_ends_at = CASE
      WHEN r.blocked_until > now() THEN r.window_ends_at
      WHEN r.blocked_until IS NOT NULL OR r.window_ends_at <= now() THEN EXCLUDED.window_ends_at
      ELSE r.window_ends_at END,
    blocked_until = CASE
      WHEN r.blocked_until > now() THEN r.blocked_until
      WHEN r.blocked_until IS NOT NULL OR r.window_ends_at <= now() THEN EXCLUDED.blocked_until
      WHEN r.hits + 1 > $3 THEN now() + $4 * interval '1 millisecond' END
  RETURNING hits,
    ceil(extract(epoch FROM window_ends_at - now())) AS seconds_to_expire,
    ceil(extract(epoch FROM blocked_until - now())) AS seconds_blocked`;

/**
 * The rate limit's counters in PostgreSQL (`rate_limits`), shared by every instance on the
 * database: @nestjs/throttler's storage port, with the semantics of its own in-memory store over a
 * fixed window — `limit` hits per `ttl`; the hit past the limit blocks the key for
 * `blockDuration`; hits are not counted while blocked; the end of a block starts the count afresh.
 * One statement per hit. Keys whose window and block are over are deleted by `purgeExpired`.
 */
export class PostgresThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly dataSource: DataSource) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const [row] = await select<HitRow>(this.dataSource.manager, HIT_SQL, [
      `${throttlerName}:${key}`,
      ttl,
      limit,
      blockDuration,
    ]);
    const secondsBlocked = row.seconds_blocked === null ? 0 : toNumber(row.seconds_blocked);
    return {
      totalHits: toNumber(row.hits),
      timeToExpire: Math.max(0, toNumber(row.seconds_to_expire)),
      isBlocked: secondsBlocked > 0,
      timeToBlockExpire: Math.max(0, secondsBlocked),
    };
  }

  /** Deletes up to `limit` keys whose window and block are over; says how many went. */
  async purgeExpired(limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const { affected } = await execute(
      this.dataSource.manager,
      `DELETE FROM rate_limits WHERE key IN (
         SELECT key FROM rate_limits
          WHERE window_ends_at <= now() AND (blocked_until IS NULL OR blocked_until <= now())
          LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [limit],
    );
    return affected;
  }
}
