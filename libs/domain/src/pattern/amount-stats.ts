import { MinorUnits } from '../values/money';

/**
 * Running statistics of the amounts (minor units) a pattern has seen, kept with Welford's online
 * algorithm so that one observation updates them without the history: `mean` and `m2` (the sum of
 * squared deviations from the mean) are plain numbers; `min` and `max` are null until the first
 * observation.
 */
export interface AmountStats {
  readonly count: number;
  readonly mean: number;
  readonly m2: number;
  readonly min: MinorUnits | null;
  readonly max: MinorUnits | null;
}

export const EMPTY_AMOUNT_STATS: AmountStats = { count: 0, mean: 0, m2: 0, min: null, max: null };

/** An amount check needs this many observations; before that every amount counts as usual. */
export const MIN_OBSERVATIONS_FOR_AMOUNT_CHECK = 3;

/** Welford's update with one more observed amount. */
export function observeAmount(stats: AmountStats, amount: MinorUnits): AmountStats {
  const count = stats.count + 1;
  const delta = amount - stats.mean;
  const mean = stats.mean + delta / count;
  const m2 = stats.m2 + delta * (amount - mean);
  return {
    count,
    mean,
    m2,
    min: stats.min === null ? amount : Math.min(stats.min, amount),
    max: stats.max === null ? amount : Math.max(stats.max, amount),
  };
}

/** Sample standard deviation in minor units (0 with fewer than two observations). */
export function standardDeviation(stats: AmountStats): number {
  return stats.count < 2 ? 0 : Math.sqrt(Math.max(0, stats.m2) / (stats.count - 1));
}

/**
 * Is `amount` far outside what this pattern usually sees? Only once it has at least
 * MIN_OBSERVATIONS_FOR_AMOUNT_CHECK observations. An amount within [min, max] is never far; outside
 * it, far means more than max(3 standard deviations, half the mean) from the mean — the second term
 * keeps a merchant with a constant price (a subscription: deviation 0) from flagging a price rise,
 * while a misread decimal point (×10, ÷10) still stands out.
 */
export function isAmountOutlier(stats: AmountStats, amount: MinorUnits): boolean {
  if (stats.count < MIN_OBSERVATIONS_FOR_AMOUNT_CHECK || stats.min === null || stats.max === null) return false;
  if (amount >= stats.min && amount <= stats.max) return false;
  const tolerance = Math.max(3 * standardDeviation(stats), 0.5 * Math.abs(stats.mean));
  return Math.abs(amount - stats.mean) > tolerance;
}
