import { aNewOutboxMessage, describeOutboxRepositoryContract } from '@app/testing';
import { openIsolatedDatabase, type IsolatedDatabase } from '../testing/test-database';
import { TypeOrmOutboxRepository } from './typeorm-outbox.repository';

// The contract's cases use fixed ids and claim every due row of the table, so they run in a
// database of their own, emptied before each case.
let isolated: IsolatedDatabase;

beforeAll(async () => {
  isolated = await openIsolatedDatabase('outbox');
}, 60_000);

afterAll(async () => {
  await isolated?.dispose();
});

async function emptyRepository(): Promise<TypeOrmOutboxRepository> {
  await isolated.database.dataSource.query('TRUNCATE notification_outbox');
  return new TypeOrmOutboxRepository(isolated.database.dataSource.manager);
}

describeOutboxRepositoryContract('TypeOrmOutboxRepository', emptyRepository);

describe('TypeOrmOutboxRepository', () => {
  const T0 = new Date('2026-11-20T07:00:00.000Z');
  const lease = new Date(T0.getTime() + 60_000);

  it('rolls enqueued rows back with the transaction that wrote them', async () => {
    await emptyRepository();
    const failure = new Error('rolled back');

    await expect(
      isolated.database.dataSource.transaction(async (tx) => {
        await new TypeOrmOutboxRepository(tx).enqueue([aNewOutboxMessage({ id: 'in-tx', createdAt: T0 })]);
        throw failure;
      }),
    ).rejects.toBe(failure);

    expect(await new TypeOrmOutboxRepository(isolated.database.dataSource.manager).claimDue(T0, 10, lease)).toEqual([]);
  });

  it('records a pass’s deliveries in one statement, each with its own time, a delivered row kept as it was', async () => {
    const repository = await emptyRepository();
    await repository.enqueue(['a', 'b'].map((id) => aNewOutboxMessage({ id, createdAt: T0 })));
    await repository.markDelivered([{ id: 'a', at: new Date(T0.getTime() + 1_000) }]);

    await repository.markDelivered([
      { id: 'a', at: new Date(T0.getTime() + 5_000) },
      { id: 'b', at: new Date(T0.getTime() + 2_000) },
    ]);

    const rows = (await isolated.database.dataSource.query(
      'SELECT id, delivered_at FROM notification_outbox ORDER BY id',
    )) as { id: string; delivered_at: Date }[];
    expect(rows.map((r) => [r.id, r.delivered_at.toISOString()])).toEqual([
      ['a', '2026-11-20T07:00:01.000Z'],
      ['b', '2026-11-20T07:00:02.000Z'],
    ]);
  });

  it('skips rows another open claim holds: two claims in open transactions get disjoint rows without waiting (two connections)', async () => {
    const repository = await emptyRepository();
    await repository.enqueue(Array.from({ length: 10 }, (_, i) => aNewOutboxMessage({ id: `r${i}`, createdAt: T0 })));
    const [first, second] = [
      isolated.database.dataSource.createQueryRunner(),
      isolated.database.dataSource.createQueryRunner(),
    ];
    try {
      await first.startTransaction();
      await second.startTransaction();
      const firstBatch = await new TypeOrmOutboxRepository(first.manager).claimDue(T0, 6, lease);
      // The first claim's rows stay locked until it commits; the second must skip them, not wait.
      const secondBatch = await new TypeOrmOutboxRepository(second.manager).claimDue(T0, 6, lease);
      await first.commitTransaction();
      await second.commitTransaction();

      const ids = [...firstBatch, ...secondBatch].map((m) => m.id);
      expect(firstBatch).toHaveLength(6);
      expect(secondBatch).toHaveLength(4);
      expect(new Set(ids).size).toBe(10);
    } finally {
      for (const runner of [second, first]) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    }
  });
});
