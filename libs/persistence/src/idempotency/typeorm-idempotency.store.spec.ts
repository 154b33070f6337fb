import type { Database } from '../database/database';
import { createCompany, openTestDatabase } from '../testing/test-database';
import { TypeOrmIdempotencyStore } from './typeorm-idempotency.store';

// The store's claim / replay / conflict rules run in the UnitOfWork contract (typeorm-unit-of-work.spec.ts).

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database.close();
});

describe('TypeOrmIdempotencyStore.purgeExpired', () => {
  const at = (day: string) => new Date(`${day}T00:00:00.000Z`);

  it('deletes expired keys oldest first, a batch at a time, and keeps the others', async () => {
    const store = new TypeOrmIdempotencyStore(database.dataSource.manager);
    // Anything this test left behind in an earlier run against the same database.
    await store.purgeExpired(at('2020-02-01'), 100_000);
    const company = await createCompany(database);
    const key = (name: string, created: string, expires: string) =>
      database.dataSource.query(
        `INSERT INTO idempotency_keys (company_id, actor, idempotency_key, request_hash, created_at, expires_at)
         VALUES ($1, 'ola@demo.no', $2, $3, $4, $5)`,
        [company, name, 'a'.repeat(64), at(created), at(expires)],
      );
    await key('oldest', '2020-01-01', '2020-01-02');
    await key('older', '2020-01-02', '2020-01-03');
    await key('old', '2020-01-03', '2020-01-04');
    await key('fresh', '2020-01-04', '2020-01-05');
    const left = async () =>
      (
        (await database.dataSource.query(
          'SELECT idempotency_key FROM idempotency_keys WHERE company_id = $1 ORDER BY idempotency_key',
          [company],
        )) as { idempotency_key: string }[]
      ).map((row) => row.idempotency_key);

    expect(await store.purgeExpired(at('2020-01-04'), 2)).toBe(2);
    expect(await left()).toEqual(['fresh', 'old']);
    expect(await store.purgeExpired(at('2020-01-04'), 2)).toBe(1);
    expect(await left()).toEqual(['fresh']);
  });
});
