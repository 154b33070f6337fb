import { normalizeMerchant } from '../confidence/normalize-merchant';
import { EMPTY_AMOUNT_STATS, observeAmount, type AmountStats } from '../pattern/amount-stats';
import type { AccountingDate } from '../values/accounting-date';
import type { MinorUnits } from '../values/money';
import { sameVatRate } from '../values/vat-rate';

/** What kind of booking the provider holds: a Tripletex voucher or supplier invoice, a Fiken purchase. */
export type HistoricalBookingKind = 'voucher' | 'supplier_invoice' | 'purchase';

/**
 * One expense already in the company's books, as the history import reads it from the provider:
 * who was paid, to which expense account with which VAT rate, how much (gross, NOK) and when.
 */
export interface HistoricalBooking {
  readonly provider: string;
  /** The provider's id of the booking. */
  readonly bookingId: string;
  readonly kind: HistoricalBookingKind;
  readonly date: AccountingDate;
  /** The supplier's name, or the booking's text when it names no supplier. */
  readonly merchant: string;
  readonly accountCode: string;
  /** Canonical VAT percentage: "25", "15", "12", "0". */
  readonly vatRate: string;
  /** Gross amount in NOK minor units, > 0. */
  readonly amount: MinorUnits;
}

/** How many months of bookings the import reads. */
export const HISTORY_MONTHS = 12;

/**
 * A merchant's bookings suggest a pattern only when one account + VAT rate holds at least this
 * share of them: 4 in 5. Below it the history is mixed (a supplier of both office supplies and
 * furniture) and a suggestion would be a guess; the reviewer's approvals will teach it instead.
 */
export const DOMINANT_SHARE = 0.8;

/**
 * …and at least this many bookings: a one-off purchase says nothing about the next one. Three is
 * a quarter's bills from a monthly supplier.
 */
export const MIN_BOOKINGS_FOR_SUGGESTION = 3;

/** What the history says of one merchant: book it to this account with this VAT rate. */
export interface DerivedSuggestion {
  readonly merchantKey: string;
  /** The name the merchant was booked under most often. */
  readonly merchantName: string;
  readonly accountCode: string;
  readonly vatRate: string;
  /** The bookings to this account and VAT rate, and to any account for this merchant. */
  readonly bookings: number;
  readonly merchantBookings: number;
  /** bookings / merchantBookings. */
  readonly share: number;
  /** Of the bookings to this account and VAT rate. */
  readonly amountStats: AmountStats;
  readonly firstDate: AccountingDate;
  readonly lastDate: AccountingDate;
}

/**
 * Merchant → (account, VAT rate) suggestions from the company's booking history: bookings are
 * grouped by normalised merchant key (so `SPOTIFY AB *P2B9C1X` and `Spotify AB` are one
 * merchant, Uber and Uber Eats two); a merchant yields a suggestion for its dominant account + VAT
 * rate when that combination has at least MIN_BOOKINGS_FOR_SUGGESTION bookings and DOMINANT_SHARE
 * of the merchant's bookings, else none. The amount statistics are those of the dominant bookings
 * only. Sorted by merchant key; a pure function of the bookings (their order does not matter).
 */
export function deriveSuggestions(bookings: readonly HistoricalBooking[]): DerivedSuggestion[] {
  const byMerchant = new Map<string, HistoricalBooking[]>();
  for (const booking of bookings) {
    const key = normalizeMerchant(booking.merchant);
    if (key === '' || booking.amount <= 0) continue;
    const list = byMerchant.get(key) ?? [];
    list.push(booking);
    byMerchant.set(key, list);
  }
  const suggestions: DerivedSuggestion[] = [];
  for (const [merchantKey, merchantBookings] of byMerchant) {
    const groups: HistoricalBooking[][] = [];
    for (const booking of merchantBookings) {
      const group = groups.find(
        ([first]) => first.accountCode === booking.accountCode && sameVatRate(first.vatRate, booking.vatRate),
      );
      if (group) group.push(booking);
      else groups.push([booking]);
    }
    groups.sort((a, b) => b.length - a.length || compare(groupKey(a), groupKey(b)));
    const dominant = groups[0];
    const share = dominant.length / merchantBookings.length;
    if (dominant.length < MIN_BOOKINGS_FOR_SUGGESTION || share < DOMINANT_SHARE) continue;
    const ordered = [...dominant].sort(
      (a, b) => compare(a.date, b.date) || compare(a.provider, b.provider) || compare(a.bookingId, b.bookingId),
    );
    suggestions.push({
      merchantKey,
      merchantName: mostFrequentName(dominant),
      accountCode: dominant[0].accountCode,
      vatRate: dominant[0].vatRate,
      bookings: dominant.length,
      merchantBookings: merchantBookings.length,
      share: Math.round(share * 1000) / 1000,
      amountStats: ordered.reduce((stats, booking) => observeAmount(stats, booking.amount), EMPTY_AMOUNT_STATS),
      firstDate: ordered[0].date,
      lastDate: ordered[ordered.length - 1].date,
    });
  }
  return suggestions.sort((a, b) => compare(a.merchantKey, b.merchantKey));
}

/** The first day of the history a company's import reads when it runs on `today`. */
export function historyStart(today: AccountingDate): AccountingDate {
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - HISTORY_MONTHS);
  return date.toISOString().slice(0, 10);
}

function mostFrequentName(bookings: readonly HistoricalBooking[]): string {
  const counts = new Map<string, number>();
  for (const booking of bookings) counts.set(booking.merchant, (counts.get(booking.merchant) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]))[0][0];
}

function groupKey(group: readonly HistoricalBooking[]): string {
  return `${group[0].accountCode}\u0000${group[0].vatRate}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
