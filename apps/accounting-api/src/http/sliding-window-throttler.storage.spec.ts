import { SlidingWindowThrottlerStorage } from './sliding-window-throttler.storage';

const MINUTE = 60_000;

describe('SlidingWindowThrottlerStorage', () => {
  let now: number;
  let storage: SlidingWindowThrottlerStorage;

  beforeEach(() => {
    now = 1_000_000;
    storage = new SlidingWindowThrottlerStorage(() => now);
  });

  afterEach(() => storage.onApplicationShutdown());

  const hit = (key = 'demo\u0000ola', limit = 3) => storage.increment(key, MINUTE, limit, MINUTE, 'default');

  it('counts hits up to the limit, then blocks the hit past it with the time left of the block', async () => {
    expect((await hit()).totalHits).toBe(1);
    await hit();
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    now += 1_500;
    expect(await hit()).toEqual({ totalHits: 4, timeToExpire: 59, isBlocked: true, timeToBlockExpire: 60 });
  });

  it('does not count hits while blocked, and starts afresh when the block ends', async () => {
    for (let i = 0; i < 4; i++) await hit();
    now += 30_000;
    expect(await hit()).toMatchObject({ isBlocked: true, totalHits: 4, timeToBlockExpire: 30 });
    now += 30_000;
    expect(await hit()).toMatchObject({ isBlocked: false, totalHits: 1 });
  });

  it('forgets each hit a ttl after it was made: a sliding window, not a fixed one', async () => {
    await hit();
    now += 40_000;
    await hit();
    await hit();
    now += 20_000; // the first hit expires now
    expect(await hit()).toMatchObject({ isBlocked: false, totalHits: 3 });
    expect(await hit()).toMatchObject({ isBlocked: true });
  });

  it('keeps keys and throttlers apart', async () => {
    for (let i = 0; i < 4; i++) await hit('demo\u0000ola');
    expect(await hit('demo\u0000kari')).toMatchObject({ isBlocked: false, totalHits: 1 });
    expect(await storage.increment('demo\u0000ola', MINUTE, 3, MINUTE, 'burst')).toMatchObject({ totalHits: 1 });
  });

  it('counts exactly over a long run at a high limit, dropping expired hits as it goes', async () => {
    // 100 hits per simulated second for five minutes against a limit of 10 000 per minute: the
    // window holds at most 6 000, so nothing is blocked, and the count is the last minute's hits.
    let last = { totalHits: 0, isBlocked: false };
    for (let second = 0; second < 300; second++) {
      for (let i = 0; i < 100; i++) last = await hit('busy', 10_000);
      now += 1_000;
    }
    expect(last).toMatchObject({ isBlocked: false, totalHits: 6_000 });
  });

  it('forgets idle keys, but not a blocked one before its block ends', async () => {
    await hit('idle');
    for (let i = 0; i < 4; i++) await storage.increment('blocked', MINUTE, 3, 2 * MINUTE, 'default');
    now += MINUTE;
    storage.evictIdle();
    expect(storage.size).toBe(1);
    now += MINUTE;
    storage.evictIdle();
    expect(storage.size).toBe(0);
  });
});
