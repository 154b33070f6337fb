import { AccountCode } from '../values/account-code';
import { VatRate } from '../values/vat-rate';
import { AmountStats } from './amount-stats';

/**
 * A learnt rule: this merchant is booked to this account with this VAT rate. One active pattern per
 * (company, merchantKey, accountCode, vatRate); a merchant whose approvals went to different
 * accounts has several, which the ConfidenceEngine reads as an ambiguous history.
 *
 * `version` is the sequence of the pattern's last event in its own chain (correlationId = id) and
 * the optimistic-concurrency version of the stored pattern.
 */
export interface Pattern {
  readonly id: string;
  readonly companyId: string;
  /** normalizeMerchant(merchantName): the lookup key. */
  readonly merchantKey: string;
  /** The merchant's name as last seen, for people. */
  readonly merchantName: string;
  readonly accountCode: AccountCode;
  readonly vatRate: VatRate;
  /** Review approvals that confirmed this pattern. A pattern an accountant created starts at 0. */
  readonly approvals: number;
  readonly amountStats: AmountStats;
  /** Confirmed by a person (a reviewer's approval or an accountant). Only verified patterns auto-approve. */
  readonly verified: boolean;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Retired patterns are kept for the audit trail and ignored by scoring. */
  readonly retiredAt: Date | null;
}

export function isActivePattern(pattern: Pattern): boolean {
  return pattern.retiredAt === null;
}
