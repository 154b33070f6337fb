import { AmountStats, EMPTY_AMOUNT_STATS, normalizeMerchant, observeAmount, Pattern } from '@app/domain';
import { DEFAULT_TEST_INSTANT } from '../time/manual-clock';
import { REVIEWER, TEST_COMPANY } from './origin.mother';

let patternCounter = 0;

/** Amount statistics of these observed amounts (minor units). */
export function amountStatsOf(amounts: readonly number[]): AmountStats {
  return amounts.reduce(observeAmount, EMPTY_AMOUNT_STATS);
}

export interface PatternOptions extends Partial<Omit<Pattern, 'amountStats' | 'merchantKey'>> {
  /** Observed amounts in minor units; sets amountStats. Defaults to three times 119.00. */
  readonly amounts?: readonly number[];
  /** Overrides the key normally derived from merchantName. */
  readonly merchantKey?: string;
}

/**
 * A verified Spotify pattern (6540, 25 %, domestic VAT, no supplier known) with 3 approvals of 119.00, learnt from approvals that the
 * REVIEWER confirmed (written by no one), unless told otherwise. An unverified one has no confirmers.
 */
export function aPattern(options: PatternOptions = {}): Pattern {
  const { amounts, ...fields } = options;
  patternCounter += 1;
  const merchantName = fields.merchantName ?? 'Spotify AB';
  const approvals = fields.approvals ?? 3;
  const verified = fields.verified ?? true;
  const stats = amountStatsOf(amounts ?? Array.from({ length: approvals }, () => 11900));
  return {
    id: `pattern-${String(patternCounter).padStart(6, '0')}`,
    companyId: TEST_COMPANY,
    merchantName,
    accountCode: '6540',
    vatRate: '25',
    vatTreatment: 'domestic',
    supplierOrganizationNumber: null,
    approvals,
    verified,
    writtenBy: null,
    lastChangedBy: null,
    confirmedBy: verified ? [REVIEWER] : [],
    history: null,
    version: 1,
    createdAt: DEFAULT_TEST_INSTANT,
    updatedAt: DEFAULT_TEST_INSTANT,
    retiredAt: null,
    ...fields,
    merchantKey: fields.merchantKey ?? normalizeMerchant(merchantName),
    amountStats: stats,
  };
}
