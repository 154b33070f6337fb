import { InMemoryIdempotencyStore, ManualClock } from '@app/testing';
import { AppConfig } from '../config/app-config';
import { IdempotencyPurgeWorker, PURGE_BATCH } from './idempotency-purge.worker';

const HOUR = 3_600_000;

function worker(store: InMemoryIdempotencyStore, clock: ManualClock, intervalMs = HOUR): IdempotencyPurgeWorker {
  return new IdempotencyPurgeWorker(
    store,
    clock,
    Object.assign(new AppConfig(), { idempotencyPurgeIntervalMs: intervalMs }),
  );
}

/** `count` keys of one company and actor, each kept 24 h from `createdAt`. */
async function keys(store: InMemoryIdempotencyStore, count: number, createdAt: Date, prefix: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const record = {
      scope: { companyId: 'acme', actor: 'ola@acme.no', key: `${prefix}-${i}` },
      requestHash: 'a'.repeat(64),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 24 * HOUR),
    };
    await store.complete(record, { status: 201, body: { id: i } });
  }
}

describe('IdempotencyPurgeWorker', () => {
  afterEach(() => jest.useRealTimers());

  it('deletes the keys whose 24 h have passed, and keeps the others', async () => {
    const clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
    const store = new InMemoryIdempotencyStore();
    await keys(store, 3, new Date('2026-11-21T11:00:00.000Z'), 'old');
    await keys(store, 2, new Date('2026-11-22T11:00:00.000Z'), 'new');

    expect(await worker(store, clock).purgeOnce()).toBe(3);
    expect(store.size).toBe(2);
  });

  it('runs an interval after start, batch after batch while batches come back full, then waits', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
    const store = new InMemoryIdempotencyStore();
    await keys(store, PURGE_BATCH * 2 + 5, new Date('2026-11-20T00:00:00.000Z'), 'old');
    const purge = jest.spyOn(store, 'purgeExpired');
    const subject = worker(store, clock);

    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(HOUR - 1);
    expect(purge).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(purge).toHaveBeenCalledTimes(3);
    expect(store.size).toBe(0);
    await jest.advanceTimersByTimeAsync(HOUR);
    expect(purge).toHaveBeenCalledTimes(4);

    await subject.beforeApplicationShutdown();
  });

  it('does not run with an interval of 0', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const store = new InMemoryIdempotencyStore();
    const purge = jest.spyOn(store, 'purgeExpired');
    const subject = worker(store, new ManualClock(), 0);

    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10 * HOUR);
    expect(purge).not.toHaveBeenCalled();
    await subject.beforeApplicationShutdown();
  });
});
