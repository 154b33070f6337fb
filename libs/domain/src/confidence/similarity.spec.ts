import fc from 'fast-check';
import { jaroWinkler, merchantSimilarity, trigramSimilarity } from './similarity';

describe('string similarity', () => {
  it('gives the textbook Jaro–Winkler values', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 2);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
  });

  it('computes trigram similarity like pg_trgm', () => {
    // pg_trgm: similarity('uber', 'uber eats') = 0.5
    expect(trigramSimilarity('uber', 'uber eats')).toBeCloseTo(0.5, 5);
    expect(trigramSimilarity('spotify', 'spotify')).toBe(1);
    expect(trigramSimilarity('abc', 'xyz')).toBe(0);
  });

  it('scores look-alikes high but below identity', () => {
    for (const [a, b] of [
      ['uber', 'uber eats'],
      ['apple', 'applebees'],
    ]) {
      const similarity = merchantSimilarity(a, b);
      expect(similarity).toBeGreaterThanOrEqual(0.8);
      expect(similarity).toBeLessThan(1);
    }
  });

  it('is symmetric, within [0, 1], and 1 only for equal keys', () => {
    const key = fc.stringMatching(/^[a-z0-9]{1,8}( [a-z0-9]{1,8}){0,2}$/);
    fc.assert(
      fc.property(key, key, (a, b) => {
        const similarity = merchantSimilarity(a, b);
        expect(similarity).toBe(merchantSimilarity(b, a));
        expect(similarity).toBeGreaterThanOrEqual(0);
        expect(similarity).toBeLessThanOrEqual(1);
        if (a === b) expect(similarity).toBe(1);
      }),
    );
  });
});
