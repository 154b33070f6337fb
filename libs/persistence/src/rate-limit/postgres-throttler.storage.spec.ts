import { randomUUID } from 'node:crypto';
import type { Database } from '../database/database';
import { openTestDatabase } from '../testing/test-database';
import { PostgresThrottlerStorage } from './postgres-throttler.storage';

const MINUTE = 60_000;

let database: Database;
let other: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  // Another instance: its own pool on the same database.
  other = await openTestDatabase();
});

afterAll(async () => {
  await other.close();
  await database.close();
});

describe('PostgresThrottlerStorage', () => {
  let storage: PostgresThrottlerStorage;
  let key: string;

  beforeEach(() => {
    storage = new PostgresThrottlerStorage(database.dataSource);
    key = randomUUID();
  });

  const hit = (limit = 3, ttl = MINUTE, block = MINUTE, on = storage) =>
    on.increment(key, ttl, limit, block, 'default');

  /** Moves the key's window (and block, if any) into the past, as the passing of time would. */
  const endWindow = () =>
    database.dataSource.query(
      `UPDATE rate_limits SET window_ends_at = now() - interval '1 second',
              blocked_until = CASE WHEN blocked_until IS NULL THEN NULL ELSE now() - interval '1 second' END
        WHERE key = $1`,
      [`default:${key}`],
    );

  it('counts hits in the window and tells when it ends', async () => {
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
    expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: false });
  });

  it('blocks the hit past the limit for the block duration, and counts nothing while blocked', async () => {
    for (let i = 0; i < 3; i++) await hit(3, MINUTE, 30_000);

    expect(await hit(3, MINUTE, 30_000)).toEqual({
      totalHits: 4,
      timeToExpire: expect.any(Number),
      isBlocked: true,
      timeToBlockExpire: 30,
    });
    expect(await hit(3, MINUTE, 30_000)).toMatchObject({ totalHits: 4, isBlocked: true });
  });

  it('starts afresh once the window is over', async () => {
    await hit();
    await hit();
    await endWindow();

    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('starts afresh once the block is over', async () => {
    for (let i = 0; i < 4; i++) await hit();
    await endWindow();

    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('keeps keys and throttlers apart', async () => {
    await hit();
    await hit();

    expect(await storage.increment(randomUUID(), MINUTE, 3, MINUTE, 'default')).toMatchObject({ totalHits: 1 });
    expect(await storage.increment(key, MINUTE, 3, MINUTE, 'other')).toMatchObject({ totalHits: 1 });
  });

  it('shares one count between instances on the same database', async () => {
    const second = new PostgresThrottlerStorage(other.dataSource);

    await hit(3, MINUTE, MINUTE, storage);
    await hit(3, MINUTE, MINUTE, second);
    await hit(3, MINUTE, MINUTE, storage);

    expect(await hit(3, MINUTE, MINUTE, second)).toMatchObject({ totalHits: 4, isBlocked: true });
  });

  it('counts concurrent hits exactly once each', async () => {
    const second = new PostgresThrottlerStorage(other.dataSource);

    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => hit(100, MINUTE, MINUTE, i % 2 === 0 ? storage : second)),
    );

    expect(results.map((r) => r.totalHits).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('purges the keys whose window and block are over, and keeps the others', async () => {
    const blocked = randomUUID();
    for (let i = 0; i < 2; i++) await storage.increment(blocked, MINUTE, 1, MINUTE, 'default');
    await hit();
    await database.dataSource.query(
      `UPDATE rate_limits SET window_ends_at = now() - interval '1 second' WHERE key = ANY($1)`,
      [[`default:${key}`, `default:${blocked}`]],
    );
    const left = async () =>
      (
        (await database.dataSource.query('SELECT key FROM rate_limits WHERE key = ANY($1) ORDER BY key', [
          [`default:${key}`, `default:${blocked}`],
        ])) as { key: string }[]
      ).map((row) => row.key);

    while ((await storage.purgeExpired(1_000)) === 1_000);

    expect(await left()).toEqual([`default:${blocked}`]);
    expect(await storage.purgeExpired(0)).toBe(0);
  });
});
