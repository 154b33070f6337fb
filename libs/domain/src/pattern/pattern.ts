import { sameActor } from '../identity/identity';
import { AccountCode } from '../values/account-code';
import { VatRate } from '../values/vat-rate';
import type { VatTreatment } from '../bookkeeping/bookkeeping';
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
  /**
   * The VAT treatment the merchant's approvals showed (the latest approval's, corrections
   * included). Null: not yet known — a pattern learnt before treatments were learnt, or an
   * accountant's rule that names none. The ConfidenceEngine reads an unknown treatment as
   * `domestic`, which every booking had before treatments existed: a proposal with another
   * treatment is not auto-approved until an approval has shown it.
   */
  readonly vatTreatment: VatTreatment | null;
  /**
   * The organisation number of the supplier whose invoices the merchant's approvals showed (the
   * latest supplier invoice approved, corrections included; an expense's approval keeps it). Null:
   * not yet known. A supplier invoice auto-approves only when its supplier is this one.
   */
  readonly supplierOrganizationNumber: string | null;
  /** Review approvals that confirmed this pattern. A pattern an accountant created starts at 0. */
  readonly approvals: number;
  readonly amountStats: AmountStats;
  /** Confirmed by a person (a reviewer's approval or an accountant). Only verified patterns auto-approve. */
  readonly verified: boolean;
  /**
   * Who wrote the rule by hand (POST /patterns); null for a pattern learnt from an approval. Their
   * own proposals never auto-approve from it (separation of duties).
   */
  readonly writtenBy: string | null;
  /** Who last changed the rule by hand (PUT /patterns/{id}); null until then. Same consequence. */
  readonly lastChangedBy: string | null;
  /**
   * Who confirmed the rule as it now stands, newest first, each person once, at most
   * MAX_CONFIRMERS_KEPT: the accountant who wrote or last changed it (when verified), and the
   * reviewers whose approvals created or strengthened it since. Empty while unverified. A proposal
   * auto-approves only if someone other than its submitter is among them.
   */
  readonly confirmedBy: readonly string[];
  /**
   * Set on a pattern the history import suggested (what the company's books showed); null for one
   * learnt from an approval or written by an accountant. A suggestion is unverified until an
   * accountant confirms it, so it scores in the review-recommended band until then.
   */
  readonly history: PatternHistory | null;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Retired patterns are kept for the audit trail and ignored by scoring. */
  readonly retiredAt: Date | null;
}

/** The evidence behind a suggestion: how the merchant was booked in the history read. */
export interface PatternHistory {
  /** Bookings to this account and VAT rate, of all the merchant's bookings read. */
  readonly bookings: number;
  readonly merchantBookings: number;
  readonly firstDate: string;
  readonly lastDate: string;
}

/** A suggestion no one has confirmed yet (and not retired): what GET /patterns/suggestions lists. */
export function isPendingSuggestion(pattern: Pattern): boolean {
  return pattern.history !== null && !pattern.verified && pattern.retiredAt === null;
}

/**
 * Two distinct confirmers are enough to know, for any submitter, whether someone else confirmed
 * the rule; the full list of who confirmed what is in the pattern's events.
 */
export const MAX_CONFIRMERS_KEPT = 2;

/** `confirmers` with `actor` in front (newest first), each person once, at most MAX_CONFIRMERS_KEPT. */
export function withConfirmer(confirmers: readonly string[], actor: string): string[] {
  return [actor, ...confirmers.filter((other) => !sameActor(other, actor))].slice(0, MAX_CONFIRMERS_KEPT);
}

export function isActivePattern(pattern: Pattern): boolean {
  return pattern.retiredAt === null;
}
