import { type BackoffPolicy, DEFAULT_BACKOFF, backoffCeiling, backoffDelay, isExhausted } from './backoff';

const policy: BackoffPolicy = { baseMs: 1_000, capMs: 60_000, minMs: 100 };

/** A deterministic PRNG (mulberry32) for sampling. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('backoff', () => {
  it('doubles the ceiling per attempt until the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffCeiling(n, policy))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000,
    ]);
    expect(backoffCeiling(10_000, policy)).toBe(60_000);
    expect(backoffCeiling(Number.POSITIVE_INFINITY, policy)).toBe(60_000);
  });

  it('spreads delays over the whole range [floor, ceiling] (full jitter)', () => {
    expect(backoffDelay(4, policy, () => 0)).toBe(100);
    expect(backoffDelay(4, policy, () => 0.5)).toBe(4_000);
    expect(backoffDelay(4, policy, () => 0.999999)).toBe(7_999);
  });

  it('keeps every sampled delay within its bounds, with the spread growing by attempt', () => {
    const random = seeded(42);
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const samples = Array.from({ length: 500 }, () => backoffDelay(attempt, policy, random));
      const ceiling = backoffCeiling(attempt, policy);
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(policy.minMs);
      expect(Math.max(...samples)).toBeLessThanOrEqual(ceiling);
      const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
      // Uniform on [0, ceiling): mean ≈ ceiling / 2 (floor aside).
      expect(mean).toBeGreaterThan(ceiling * 0.4);
      expect(mean).toBeLessThan(Math.max(ceiling * 0.6, policy.minMs * 1.5));
    }
  });

  it('never waits less than the floor, even for a random of 0 on the first attempt', () => {
    expect(backoffDelay(1, DEFAULT_BACKOFF, () => 0)).toBe(DEFAULT_BACKOFF.minMs);
    expect(DEFAULT_BACKOFF.minMs).toBeGreaterThan(0);
  });
});

describe('dead-letter policy', () => {
  const created = new Date('2026-11-20T07:00:00.000Z');
  const dayLater = new Date('2026-11-21T07:00:00.000Z');
  const policy = { afterMs: 24 * 3_600_000, minAttempts: 10 };

  it('needs both enough attempts and enough age', () => {
    expect(isExhausted(10, created, dayLater, policy)).toBe(true);
    expect(isExhausted(9, created, dayLater, policy)).toBe(false);
    expect(isExhausted(500, created, new Date(dayLater.getTime() - 1), policy)).toBe(false);
  });
});
