import { ThrottlerStorageService } from '@nestjs/throttler';
import { MemoryThrottlerStorage } from './rate-limit';

/** A deterministic sequence of gaps between requests (ms): bursts, pauses, and waits past the window. */
function gaps(seed: number, count: number): number[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => {
    const r = next();
    return r < 0.5 ? Math.floor(next() * 50) : r < 0.9 ? Math.floor(next() * 5_000) : Math.floor(next() * 90_000);
  });
}

describe('MemoryThrottlerStorage', () => {
  afterEach(() => jest.useRealTimers());

  for (const [limit, blockDuration] of [
    [3, 60_000],
    [5, 0],
    [20, 30_000],
  ] as const) {
    it(`answers as @nestjs/throttler's own store does (limit ${limit}, block ${blockDuration} ms)`, async () => {
      jest.useFakeTimers({ now: new Date('2026-11-28T10:00:00Z') });
      const ours = new MemoryThrottlerStorage();
      const theirs = new ThrottlerStorageService();
      let refused = 0;
      try {
        for (const [i, gap] of gaps(limit, 600).entries()) {
          jest.setSystemTime(Date.now() + gap);
          const key = i % 7 === 0 ? 'other' : 'caller';
          const expected = await theirs.increment(key, 60_000, limit, blockDuration, 'default');
          // The library's timeToBlockExpire means nothing unless blocked (the guard reads it only then).
          if (!expected.isBlocked) expected.timeToBlockExpire = 0;
          expect(await ours.increment(key, 60_000, limit, blockDuration, 'default')).toEqual(expected);
          if (expected.isBlocked) refused++;
        }
      } finally {
        ours.onApplicationShutdown();
        theirs.onApplicationShutdown();
      }
      // The sequence reaches the limit and recovers from it, or the comparison proves little.
      expect(refused).toBeGreaterThan(10);
    });
  }

  it('keeps a caller with a high limit to the hits still in the window, and forgets idle callers', () => {
    const storage = new MemoryThrottlerStorage();
    let now = Date.parse('2026-11-28T10:00:00Z');
    let last = storage.hit('busy', 60_000, 1_000_000, 60_000, now);
    for (let i = 0; i < 200_000; i++) last = storage.hit('busy', 60_000, 1_000_000, 60_000, (now += 1));
    // 200 s at 1 000 a second: the last 60 s count.
    expect(last).toMatchObject({ totalHits: 60_000, isBlocked: false });
    storage.hit('idle', 60_000, 10, 60_000, now);
    storage.sweepIdle(now + 60_001);
    expect(storage.size).toBe(0);
    storage.onApplicationShutdown();
  });
});
