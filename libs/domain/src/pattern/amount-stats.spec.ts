import fc from 'fast-check';
import { EMPTY_AMOUNT_STATS, FAR_FACTOR, isAmountOutlier, observeAmount, standardDeviation } from './amount-stats';

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
    ['nothing observed yet', [], 1_190_000, false],
    ['one observation: a decimal point misread (×10)', [11900], 119000, true],
    ['one observation: a decimal point misread (÷10)', [11900], 1190, true],
    ['one observation: a bigger bill of the same kind', [45000], 90000, false],
    ['one observation: a smaller bill of the same kind', [45000], 15000, false],
    ['two observations: ×100', [11900, 11900], 1_190_000, true],
    ['two observations: the statistical rule waits for a third', [11900, 11900], 23800, false],
    ['within [min, max]', [10000, 20000, 30000], 25000, false],
    ['a price rise on a constant subscription', [11900, 11900, 11900], 12900, false],
    ['a decimal point misread (×10)', [11900, 11900, 11900], 119000, true],
    ['a decimal point misread (÷10)', [11900, 11900, 11900], 1190, true],
    ['within 3 standard deviations of a spread history', [5000, 15000, 25000, 35000], 55000, false],
    ['far beyond a spread history', [5000, 15000, 25000, 35000], 200000, true],
  ])('%s', (_label, amounts, amount, outlier) => {
    expect(isAmountOutlier(statsOf(amounts), amount)).toBe(outlier);
  });

  const amount = fc.integer({ min: 1, max: 1_000_000_000 });
  const history = fc.array(amount, { minLength: 1, maxLength: 20 });

  it('flags ×10 and ÷10 of anything seen, from the first observation on', () => {
    fc.assert(
      fc.property(history, (amounts) => {
        const stats = statsOf(amounts);
        expect(isAmountOutlier(stats, Math.max(...amounts) * 10)).toBe(true);
        const tenth = Math.floor(Math.min(...amounts) / 10);
        if (tenth >= 1) expect(isAmountOutlier(stats, tenth)).toBe(true);
      }),
    );
  });

  it('never flags an amount within what was seen, nor anything before the first observation', () => {
    fc.assert(
      fc.property(history, fc.double({ min: 0, max: 1, noNaN: true }), amount, (amounts, at, any) => {
        const [min, max] = [Math.min(...amounts), Math.max(...amounts)];
        expect(isAmountOutlier(statsOf(amounts), Math.round(min + (max - min) * at))).toBe(false);
        expect(isAmountOutlier(EMPTY_AMOUNT_STATS, any)).toBe(false);
      }),
    );
  });

  it('never flags an amount within the far factor of a single observation', () => {
    fc.assert(
      fc.property(amount, fc.double({ min: 1 / FAR_FACTOR, max: FAR_FACTOR, noNaN: true }), (seen, factor) => {
        const candidate = Math.round(seen * factor);
        fc.pre(candidate * FAR_FACTOR >= seen && candidate <= seen * FAR_FACTOR);
        expect(isAmountOutlier(statsOf([seen]), candidate)).toBe(false);
      }),
    );
  });

  it('is monotonic: an amount further out than a flagged one is flagged too', () => {
    fc.assert(
      fc.property(history, amount, amount, (amounts, a, b) => {
        const stats = statsOf(amounts);
        const [low, high] = a <= b ? [a, b] : [b, a];
        if (low > stats.max! && isAmountOutlier(stats, low)) expect(isAmountOutlier(stats, high)).toBe(true);
        if (high < stats.min! && isAmountOutlier(stats, high)) expect(isAmountOutlier(stats, low)).toBe(true);
      }),
    );
  });
});
