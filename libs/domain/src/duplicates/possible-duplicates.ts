import type { ConfidenceAssessment } from '../confidence/confidence-engine';
import { normalizeMerchant } from '../confidence/normalize-merchant';
import { routeFor } from '../confidence/route';
import type { Proposal } from '../proposal/proposal';
import type { AccountingDate } from '../values/accounting-date';
import { formatMoney, type MinorUnits } from '../values/money';

/** Two records whose dates are at most this many days apart can be the same purchase. */
export const DUPLICATE_DATE_TOLERANCE_DAYS = 1;
/** How far back the company's proposals are searched for an earlier copy, in months. */
export const DUPLICATE_LOOKBACK_MONTHS = 12;
/**
 * A possible duplicate is capped here, in the "review required" band: booking the same purchase
 * twice is an error the books keep, so a person must look whatever the patterns say.
 */
export const POSSIBLE_DUPLICATE_MAX_SCORE = 0.5;

/** What is compared of the proposal being submitted. */
export interface DuplicateProbe {
  readonly merchant: string;
  readonly amount: MinorUnits;
  readonly currency: string;
  readonly date: AccountingDate;
  /** Hex SHA-256 of the receipt's bytes, when it has one. */
  readonly receiptSha256: string | null;
}

/** A booking read from the provider's books (history import): what can match a new proposal. */
export interface EarlierBooking {
  readonly provider: string;
  /** The provider's id: a Tripletex voucher or supplier invoice, a Fiken purchase. */
  readonly bookingId: string;
  /** What kind of booking, in the provider's words (voucher, supplier invoice, purchase). */
  readonly kind: string;
  readonly merchant: string;
  /** Gross amount in NOK minor units. */
  readonly amount: MinorUnits;
  readonly date: AccountingDate;
}

export type DuplicateGround = 'same_receipt' | 'same_merchant_amount_date';

/** One earlier record the proposal may repeat, with the reason a reviewer reads. */
export interface DuplicateMatch {
  readonly source: 'proposal' | 'booking';
  /** The earlier proposal's id, or the provider's booking id. */
  readonly id: string;
  readonly ground: DuplicateGround;
  readonly reason: string;
}

/**
 * The earlier records `probe` may repeat: a proposal of the company that was not rejected with the
 * very same receipt (identical bytes), or a proposal or provider booking with the same merchant
 * (normalised: `SPOTIFY AB *P2B9C1X` is Spotify), the same amount and currency, and a date at most
 * DUPLICATE_DATE_TOLERANCE_DAYS away. A monthly subscription — same merchant and amount a month
 * apart — is not one. Sorted: same receipt first, then by id, so the reasons are stable.
 *
 * The caller has narrowed `proposals` to the company and the lookback; rejected ones are ignored
 * here too, since a rejected proposal books nothing and its correction is expected.
 */
export function findPossibleDuplicates(
  probe: DuplicateProbe,
  proposals: readonly Proposal[],
  bookings: readonly EarlierBooking[] = [],
): DuplicateMatch[] {
  const key = normalizeMerchant(probe.merchant);
  const matches: DuplicateMatch[] = [];
  for (const earlier of proposals) {
    if (earlier.status === 'REJECTED') continue;
    const sameReceipt = probe.receiptSha256 !== null && earlier.receipt?.sha256 === probe.receiptSha256;
    const samePurchase =
      key !== '' &&
      normalizeMerchant(earlier.merchant) === key &&
      earlier.amount === probe.amount &&
      earlier.currency === probe.currency &&
      daysApart(earlier.date, probe.date) <= DUPLICATE_DATE_TOLERANCE_DAYS;
    if (!sameReceipt && !samePurchase) continue;
    const ground: DuplicateGround = sameReceipt ? 'same_receipt' : 'same_merchant_amount_date';
    matches.push({ source: 'proposal', id: earlier.id, ground, reason: proposalReason(earlier, ground) });
  }
  for (const booking of bookings) {
    const samePurchase =
      key !== '' &&
      probe.currency === 'NOK' &&
      normalizeMerchant(booking.merchant) === key &&
      booking.amount === probe.amount &&
      daysApart(booking.date, probe.date) <= DUPLICATE_DATE_TOLERANCE_DAYS;
    if (!samePurchase) continue;
    matches.push({
      source: 'booking',
      id: booking.bookingId,
      ground: 'same_merchant_amount_date',
      reason:
        `possible duplicate of ${booking.provider} ${booking.kind} ${booking.bookingId} already in the books ` +
        `(${booking.merchant}, NOK ${formatMoney(booking.amount)}, ${booking.date}): same merchant, amount and date within a day`,
    });
  }
  return matches.sort(
    (a, b) =>
      Number(b.ground === 'same_receipt') - Number(a.ground === 'same_receipt') ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * The assessment of a possible duplicate: the reasons name every earlier record it may repeat and
 * the score is capped at POSSIBLE_DUPLICATE_MAX_SCORE, so it is stored PROPOSED and never
 * auto-approved. Without matches the assessment is returned as it is.
 */
export function holdPossibleDuplicates(
  assessment: ConfidenceAssessment,
  matches: readonly DuplicateMatch[],
): ConfidenceAssessment {
  if (matches.length === 0) return assessment;
  const score = Math.min(assessment.score, POSSIBLE_DUPLICATE_MAX_SCORE);
  return {
    ...assessment,
    score,
    route: routeFor(score),
    reasons: [...assessment.reasons, ...matches.map((match) => `${match.reason}: never auto-approved`)],
  };
}

/** The first day of the lookback: DUPLICATE_LOOKBACK_MONTHS before `now` (UTC). */
export function duplicateLookbackStart(now: Date): Date {
  const start = new Date(now.getTime());
  start.setUTCMonth(start.getUTCMonth() - DUPLICATE_LOOKBACK_MONTHS);
  return start;
}

/** The dates within DUPLICATE_DATE_TOLERANCE_DAYS of `date`, as an inclusive range. */
export function duplicateDateWindow(date: AccountingDate): { from: AccountingDate; to: AccountingDate } {
  return { from: shiftDays(date, -DUPLICATE_DATE_TOLERANCE_DAYS), to: shiftDays(date, DUPLICATE_DATE_TOLERANCE_DAYS) };
}

function proposalReason(earlier: Proposal, ground: DuplicateGround): string {
  const what =
    ground === 'same_receipt'
      ? 'the same receipt (identical file)'
      : 'the same merchant, amount and a date within a day';
  const booked = earlier.booking ? `, booked as ${earlier.booking.provider} ${earlier.booking.bookingId}` : '';
  return (
    `possible duplicate of proposal ${earlier.id} (${earlier.merchant}, ${earlier.currency} ` +
    `${formatMoney(earlier.amount)}, ${earlier.date}, ${earlier.status}${booked}): ${what}`
  );
}

const DAY_MS = 86_400_000;

function daysApart(a: AccountingDate, b: AccountingDate): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;
}

function shiftDays(date: AccountingDate, days: number): AccountingDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
