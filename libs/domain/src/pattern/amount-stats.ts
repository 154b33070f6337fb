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

/**
 * From this many observations on the spread of the history is trusted too: an amount must also
 * stay within its statistical tolerance (see isAmountOutlier). Before that only the far-factor
 * rule applies.
 */
export const MIN_OBSERVATIONS_FOR_SPREAD = 3;

/**
 * An amount more than this many times the largest amount seen, or less than the smallest divided
 * by it, is far from everything the pattern has seen: from the first observation on. A misread
 * decimal point (× 10, ÷ 10) always is; an ordinary variation of a bill (a bigger lunch, a price
 * rise) is not.
 */
export const FAR_FACTOR = 4;

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
 * Is `amount` far from everything this pattern has seen? Never before the first observation, and
 * never within [min, max]. Outside that range it is far when
 *
 * 1. it is more than FAR_FACTOR × max or less than min ÷ FAR_FACTOR — from the first observation
 *    on, so that one approval at 119.00 does not vouch for 1 190.00 or 11.90; or
 * 2. with at least MIN_OBSERVATIONS_FOR_SPREAD observations, it is further from the mean than
 *    max(3 standard deviations, half the mean) — the second term keeps a merchant with a constant
 *    price (a subscription: deviation 0) from flagging a price rise.
 *
 * One observation says little about how much a merchant's bills vary, hence the wide factor; a few
 * observations say more, hence the tighter statistical rule.
 */
export function isAmountOutlier(stats: AmountStats, amount: MinorUnits): boolean {
  if (stats.count === 0 || stats.min === null || stats.max === null) return false;
  if (amount >= stats.min && amount <= stats.max) return false;
  if (amount > stats.max * FAR_FACTOR || amount * FAR_FACTOR < stats.min) return true;
  if (stats.count < MIN_OBSERVATIONS_FOR_SPREAD) return false;
  const tolerance = Math.max(3 * standardDeviation(stats), 0.5 * Math.abs(stats.mean));
  return Math.abs(amount - stats.mean) > tolerance;
}
