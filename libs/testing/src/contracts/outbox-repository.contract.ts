import type { OutboxRepository } from '@app/notifications';
import { aNewOutboxMessage } from '../mothers/notification.mother';

const T0 = new Date('2026-11-20T07:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

/**
 * The shared contract of OutboxRepository (see the port's documentation), to be run against every
 * adapter: `describeOutboxRepositoryContract('TypeOrmOutboxRepository', async () => fresh())`.
 * `create` must return an empty repository for every test.
 */
export function describeOutboxRepositoryContract(
  adapterName: string,
  create: () => OutboxRepository | Promise<OutboxRepository>,
): void {
  describe(`${adapterName} (OutboxRepository contract)`, () => {
    let repo: OutboxRepository;

    beforeEach(async () => {
      repo = await create();
    });

    it('claims only pending rows that are due, oldest due first, up to the limit', async () => {
      const late = aNewOutboxMessage({ id: 'c', createdAt: T0, nextAttemptAt: at(5_000) });
      const first = aNewOutboxMessage({ id: 'b', createdAt: at(-2_000) });
      const second = aNewOutboxMessage({ id: 'a', createdAt: at(-1_000) });
      const third = aNewOutboxMessage({ id: 'd', createdAt: at(-500) });
      await repo.enqueue([late, first, second, third]);

      const claimed = await repo.claimDue(T0, 2, at(60_000));

      expect(claimed.map((m) => m.id)).toEqual(['b', 'a']);
      expect(claimed.every((m) => m.attempts === 1)).toBe(true);
      expect(claimed.every((m) => m.nextAttemptAt.getTime() === at(60_000).getTime())).toBe(true);
      expect(claimed[0]).toMatchObject({
        companyId: first.companyId,
        target: first.target,
        kind: first.kind,
        payload: first.payload,
        deliveredAt: null,
        deadAt: null,
        lastError: null,
      });
      expect((await repo.claimDue(T0, 10, at(60_000))).map((m) => m.id)).toEqual(['d']);
    });

    it('leases a claimed row so that it is not claimed again until the lease ends', async () => {
      await repo.enqueue([aNewOutboxMessage({ id: 'x', createdAt: T0 })]);
      await repo.claimDue(T0, 10, at(30_000));

      expect(await repo.claimDue(at(29_999), 10, at(90_000))).toEqual([]);
      const again = await repo.claimDue(at(30_000), 10, at(90_000));
      expect(again.map((m) => [m.id, m.attempts])).toEqual([['x', 2]]);
    });

    it('gives concurrent claims disjoint rows', async () => {
      await repo.enqueue(Array.from({ length: 30 }, (_, i) => aNewOutboxMessage({ id: `m${i}`, createdAt: T0 })));

      const batches = await Promise.all([0, 1, 2].map(() => repo.claimDue(T0, 12, at(60_000))));

      const ids = batches.flat().map((m) => m.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(30);
    });

    it('ignores an enqueue of an id that already exists', async () => {
      const original = aNewOutboxMessage({ id: 'dup', createdAt: T0 });
      await repo.enqueue([original]);
      await repo.enqueue([{ ...original, companyId: 'someone-else' }]);

      const claimed = await repo.claimDue(T0, 10, at(1_000));
      expect(claimed).toHaveLength(1);
      expect(claimed[0].companyId).toBe(original.companyId);
    });

    it('never claims a delivered row again; a repeated markDelivered is harmless', async () => {
      await repo.enqueue([aNewOutboxMessage({ id: 'x', createdAt: T0 })]);
      await repo.claimDue(T0, 10, at(1_000));
      await repo.markDelivered([{ id: 'x', at: at(10) }]);
      await repo.markDelivered([{ id: 'x', at: at(20) }]);

      expect(await repo.claimDue(at(10_000_000), 10, at(20_000_000))).toEqual([]);
      expect(await repo.markFailed('x', 1, 'late failure', at(5))).toBe(false);
    });

    it('records many deliveries at once, and ignores unknown ids and an empty list', async () => {
      await repo.enqueue(['a', 'b', 'c'].map((id) => aNewOutboxMessage({ id, createdAt: T0 })));
      await repo.claimDue(T0, 10, at(1_000));

      await repo.markDelivered([]);
      await repo.markDelivered([
        { id: 'a', at: at(10) },
        { id: 'c', at: at(30) },
        { id: 'nope', at: at(40) },
      ]);

      const [pending] = await repo.claimDue(at(10_000_000), 10, at(20_000_000));
      expect(pending.id).toBe('b');
      expect(await repo.markFailed('a', 1, 'late failure', at(5))).toBe(false);
      expect(await repo.markFailed('c', 1, 'late failure', at(5))).toBe(false);
    });

    it('reschedules a failed attempt with its error', async () => {
      await repo.enqueue([aNewOutboxMessage({ id: 'x', createdAt: T0 })]);
      const [claimed] = await repo.claimDue(T0, 10, at(60_000));

      expect(await repo.markFailed('x', claimed.attempts, 'http 500', at(2_000))).toBe(true);

      expect(await repo.claimDue(at(1_999), 10, at(60_000))).toEqual([]);
      const [again] = await repo.claimDue(at(2_000), 10, at(60_000));
      expect(again).toMatchObject({ id: 'x', attempts: 2, lastError: 'http 500' });
    });

    it('fences outcomes by attempt: a worker whose lease was taken over cannot overwrite the new claim', async () => {
      await repo.enqueue([aNewOutboxMessage({ id: 'x', createdAt: T0 })]);
      await repo.claimDue(T0, 10, at(1_000));
      await repo.claimDue(at(1_000), 10, at(100_000));

      expect(await repo.markFailed('x', 1, 'stale', at(1_500))).toBe(false);
      expect(await repo.markDead('x', 1, 'stale', at(1_500))).toBe(false);
      expect(await repo.claimDue(at(50_000), 10, at(200_000))).toEqual([]);
    });

    it('renews a held claim so it is not claimed again when its first lease ends; a claim taken over is not renewed', async () => {
      await repo.enqueue([
        aNewOutboxMessage({ id: 'x', createdAt: T0 }),
        aNewOutboxMessage({ id: 'y', createdAt: T0 }),
      ]);
      const held = await repo.claimDue(T0, 10, at(15_000));
      const claims = held.map((m) => ({ id: m.id, attempt: m.attempts }));

      expect(await repo.renew(claims, at(30_000))).toBe(2);
      expect(await repo.claimDue(at(15_000), 10, at(60_000))).toEqual([]);
      // Delivered meanwhile: no longer held, so not renewed.
      await repo.markDelivered([{ id: 'y', at: at(20_000) }]);
      const [takenOver] = await repo.claimDue(at(30_000), 10, at(45_000));
      expect(takenOver).toMatchObject({ id: 'x', attempts: 2 });

      // The first dispatcher's renewal comes too late: the new holder's lease stands, and ends when it says.
      expect(await repo.renew(claims, at(90_000))).toBe(0);
      expect(await repo.claimDue(at(45_000), 10, at(60_000))).toHaveLength(1);
      expect(await repo.renew([], at(90_000))).toBe(0);
    });

    it('keeps a dead row out of claims, lists it for operators and can requeue it with fresh attempts', async () => {
      await repo.enqueue([
        aNewOutboxMessage({ id: 'x', createdAt: T0 }),
        aNewOutboxMessage({ id: 'y', createdAt: T0 }),
      ]);
      await repo.claimDue(T0, 10, at(1_000));
      expect(await repo.markDead('x', 1, 'gave up', at(500))).toBe(true);
      expect(await repo.markDead('y', 1, 'gave up too', at(600))).toBe(true);

      expect(await repo.claimDue(at(10_000_000), 10, at(20_000_000))).toEqual([]);
      const dead = await repo.findDead(10);
      expect(dead.map((m) => [m.id, m.lastError])).toEqual([
        ['y', 'gave up too'],
        ['x', 'gave up'],
      ]);
      expect(dead[0].deadAt?.getTime()).toBe(at(600).getTime());

      expect(await repo.requeue('x', at(2_000))).toBe(true);
      expect(await repo.requeue('x', at(2_000))).toBe(false);
      const [revived] = await repo.claimDue(at(2_000), 10, at(60_000));
      expect(revived).toMatchObject({ id: 'x', attempts: 1, deadAt: null, lastError: 'gave up' });
      expect((await repo.findDead(10)).map((m) => m.id)).toEqual(['y']);
    });

    it("lists one company's messages newest first, in every state, and no other company's", async () => {
      const mine = `co-${Math.random().toString(36).slice(2)}`;
      const theirs = `${mine}-other`;
      await repo.enqueue([
        aNewOutboxMessage({ id: `${mine}-1`, companyId: mine, createdAt: at(1_000) }),
        aNewOutboxMessage({ id: `${mine}-2`, companyId: mine, createdAt: at(2_000) }),
        aNewOutboxMessage({ id: `${mine}-3`, companyId: mine, createdAt: at(3_000) }),
        aNewOutboxMessage({ id: `${theirs}-1`, companyId: theirs, createdAt: at(4_000) }),
      ]);
      await repo.markDelivered([{ id: `${mine}-1`, at: at(5_000) }]);

      const listed = await repo.listRecent(mine, 10);
      expect(listed.map((m) => m.id)).toEqual([`${mine}-3`, `${mine}-2`, `${mine}-1`]);
      expect(listed[2].deliveredAt?.getTime()).toBe(at(5_000).getTime());
      expect((await repo.listRecent(mine, 2)).map((m) => m.id)).toEqual([`${mine}-3`, `${mine}-2`]);
    });

    it('returns copies: changing a claimed row changes nothing stored', async () => {
      await repo.enqueue([aNewOutboxMessage({ id: 'x', createdAt: T0 })]);
      const [claimed] = await repo.claimDue(T0, 10, at(1_000));
      claimed.attempts = 99;
      claimed.nextAttemptAt = at(-1_000_000);

      expect(await repo.claimDue(at(999), 10, at(2_000))).toEqual([]);
      const [again] = await repo.claimDue(at(1_000), 10, at(2_000));
      expect(again.attempts).toBe(2);
    });
  });
}
