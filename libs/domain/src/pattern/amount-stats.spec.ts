import fc from 'fast-check';
import { EMPTY_AMOUNT_STATS, isAmountOutlier, observeAmount, standardDeviation } from './amount-stats';

const statsOf = (amounts: number[]) => amounts.reduce(observeAmount, EMPTY_AMOUNT_STATS);

describe('amount statistics', () => {
  it('keeps count, mean, min and max, and the sample standard deviation (Welford)', () => {
    const stats = statsOf([10000, 12000, 14000]);

    expect(stats).toMatchObject({ count: 3, mean: 12000, min: 10000, max: 14000 });
    expect(standardDeviation(stats)).toBeCloseTo(2000, 6);
  });

  it('matches the two-pass computation for any amounts', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100_000_000 }), { minLength: 2, maxLength: 50 }), (amounts) => {
        const stats = statsOf(amounts);
        const mean = amounts.reduce((a, b) => a + b, 0) / amounts.length;
        const variance = amounts.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (amounts.length - 1);
        expect(stats.mean).toBeCloseTo(mean, 3);
        expect(standardDeviation(stats)).toBeCloseTo(Math.sqrt(variance), 2);
        expect(stats.min).toBe(Math.min(...amounts));
        expect(stats.max).toBe(Math.max(...amounts));
      }),
    );
  });

  it('has no deviation and no range before the first observation', () => {
    expect(standardDeviation(EMPTY_AMOUNT_STATS)).toBe(0);
    expect(EMPTY_AMOUNT_STATS).toMatchObject({ min: null, max: null });
  });

  it.each([
    ['fewer than 3 observations never judge', [11900, 11900], 1_190_000, false],
    ['within [min, max]', [10000, 20000, 30000], 25000, false],
    ['a price rise on a constant subscription', [11900, 11900, 11900], 12900, false],
    ['a decimal point misread (×10)', [11900, 11900, 11900], 119000, true],
    ['a decimal point misread (÷10)', [11900, 11900, 11900], 1190, true],
    ['within 3 standard deviations of a spread history', [5000, 15000, 25000, 35000], 55000, false],
    ['far beyond a spread history', [5000, 15000, 25000, 35000], 200000, true],
  ])('%s', (_label, amounts, amount, outlier) => {
    expect(isAmountOutlier(statsOf(amounts), amount)).toBe(outlier);
  });
});
