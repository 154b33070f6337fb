import type { IdempotencyRecord, TransactionalPorts, UnitOfWork } from '@app/application';
import { companies, type ContractOptions, uniqueId } from './contract-support';

export interface IdempotencyStoreUnderTest {
  /** Hands out the IdempotencyStore that joins the unit (`ports.idempotency`). */
  readonly unitOfWork: UnitOfWork;
}

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const DAY = 24 * 3600_000;

/**
 * The IdempotencyStore contract (see the port): a key is claimed once per company and actor, the
 * same request then replays its recorded response and another one conflicts; an expired key counts
 * as unused and is purged; a key claimed by a unit that fails stays unused; a concurrent unit with
 * the same key waits for the first.
 */
export function describeIdempotencyStoreContract(
  name: string,
  factory: () => IdempotencyStoreUnderTest | Promise<IdempotencyStoreUnderTest>,
  options: ContractOptions = {},
): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    let subject: IdempotencyStoreUnderTest;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      subject = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    function aKey(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
      return {
        scope: { companyId: company, actor: 'ola@example.no', key: `key-${uniqueId()}` },
        requestHash: 'a'.repeat(64),
        createdAt: new Date(T0),
        expiresAt: new Date(T0 + DAY),
        ...overrides,
      };
    }

    const use =
      (record: IdempotencyRecord, body: unknown = { id: 'p-1' }) =>
      (ports: TransactionalPorts) =>
        ports.idempotency.claim(record).then(async (claim) => {
          if (claim.outcome === 'claimed') await ports.idempotency.complete(record, { status: 201, body });
          return claim;
        });

    it('are claimed once; the same request then replays the recorded response exactly', async () => {
      const record = aKey();
      const body = { id: 'p-1', nested: { z: 1, a: [2, 1] }, amount: '119.00' };

      expect(await subject.unitOfWork.run(use(record, body))).toEqual({ outcome: 'claimed' });
      const replay = await subject.unitOfWork.run(use({ ...record, createdAt: new Date(T0 + 1000) }));

      expect(replay).toEqual({ outcome: 'replay', response: { status: 201, body } });
      expect(JSON.stringify(replay.outcome === 'replay' && replay.response.body)).toBe(JSON.stringify(body));
    });

    it('conflict with a different request under the same key', async () => {
      const record = aKey();
      await subject.unitOfWork.run(use(record));

      expect(await subject.unitOfWork.run(use({ ...record, requestHash: 'b'.repeat(64) }))).toEqual({
        outcome: 'conflict',
      });
    });

    it('are scoped to company and actor', async () => {
      const record = aKey();
      await subject.unitOfWork.run(use(record));

      expect(
        await subject.unitOfWork.run(use({ ...record, scope: { ...record.scope, actor: 'kari@example.no' } })),
      ).toEqual({
        outcome: 'claimed',
      });
      expect(
        await subject.unitOfWork.run(use({ ...record, scope: { ...record.scope, companyId: otherCompany } })),
      ).toEqual({
        outcome: 'claimed',
      });
    });

    it('count as unused once expired', async () => {
      const record = aKey();
      await subject.unitOfWork.run(use(record));

      const later = {
        ...record,
        requestHash: 'b'.repeat(64),
        createdAt: new Date(T0 + DAY),
        expiresAt: new Date(T0 + 2 * DAY),
      };
      expect(await subject.unitOfWork.run(use(later))).toEqual({ outcome: 'claimed' });
      expect(await subject.unitOfWork.run(use({ ...later, createdAt: new Date(T0 + DAY + 1) }))).toMatchObject({
        outcome: 'replay',
      });
    });

    it('are purged once expired, not before', async () => {
      const record = aKey();
      await subject.unitOfWork.run(use(record));
      const purge = (at: number) =>
        subject.unitOfWork.run((ports) => ports.idempotency.purgeExpired(new Date(at), 10_000));

      await purge(T0 + DAY - 1);
      expect(await subject.unitOfWork.run(use({ ...record, createdAt: new Date(T0 + DAY - 1) }))).toMatchObject({
        outcome: 'replay',
      });
      expect(await purge(T0 + DAY)).toBeGreaterThanOrEqual(1);
      expect(await subject.unitOfWork.run((ports) => ports.idempotency.purgeExpired(new Date(T0 + DAY), 0))).toBe(0);
    });

    it('stay unused when the unit that claimed them fails', async () => {
      const record = aKey();
      await expect(
        subject.unitOfWork.run(async (ports) => {
          await use(record)(ports);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');

      expect(await subject.unitOfWork.run(use(record))).toEqual({ outcome: 'claimed' });
    });

    /**
     * A unit that claims `record` and then holds its transaction open until `release` is called,
     * ending as `outcome` says; `claimed` resolves once the key is taken.
     */
    function aHoldingUnit(record: IdempotencyRecord, outcome: 'commit' | 'fail') {
      let release: () => void = () => undefined;
      let claimed: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const taken = new Promise<void>((resolve) => (claimed = resolve));
      const done = subject.unitOfWork.run(async (ports) => {
        const claim = await ports.idempotency.claim(record);
        claimed();
        await held;
        if (outcome === 'fail') throw new Error('the first unit failed');
        await ports.idempotency.complete(record, { status: 201, body: { winner: 'first' } });
        return claim;
      });
      return { done, taken, release };
    }

    /** Whether `promise` is still pending after a moment: a unit waiting on a held key stays so. */
    async function stillPending(promise: Promise<unknown>): Promise<boolean> {
      let settled = false;
      void promise.then(
        () => (settled = true),
        () => (settled = true),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      return !settled;
    }

    it('make a concurrent unit with the same key wait for the first, then replay its response', async () => {
      const record = aKey();
      const first = aHoldingUnit(record, 'commit');
      await first.taken;

      const second = subject.unitOfWork.run(use(record, { winner: 'second' }));

      expect(await stillPending(second)).toBe(true);
      first.release();
      expect(await first.done).toEqual({ outcome: 'claimed' });
      expect(await second).toEqual({ outcome: 'replay', response: { status: 201, body: { winner: 'first' } } });
    });

    it('make a concurrent unit with the same key and another request wait, then conflict', async () => {
      const record = aKey();
      const first = aHoldingUnit(record, 'commit');
      await first.taken;

      const second = subject.unitOfWork.run(use({ ...record, requestHash: 'b'.repeat(64) }));

      expect(await stillPending(second)).toBe(true);
      first.release();
      await first.done;
      expect(await second).toEqual({ outcome: 'conflict' });
    });

    it('let the waiting unit claim the key itself when the first unit fails', async () => {
      const record = aKey();
      const first = aHoldingUnit(record, 'fail');
      await first.taken;

      const second = subject.unitOfWork.run(use(record, { winner: 'second' }));

      expect(await stillPending(second)).toBe(true);
      first.release();
      await expect(first.done).rejects.toThrow('the first unit failed');
      expect(await second).toEqual({ outcome: 'claimed' });
      expect(await subject.unitOfWork.run(use(record))).toEqual({
        outcome: 'replay',
        response: { status: 201, body: { winner: 'second' } },
      });
    });
  });
}
