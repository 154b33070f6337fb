import type { ConfidenceAssessment } from '../confidence/confidence-engine';
import { normalizeMerchant } from '../confidence/normalize-merchant';
import { routeFor } from '../confidence/route';
import type { Proposal } from '../proposal/proposal';
import type { AccountingDate } from '../values/accounting-date';
import { formatMoney, type MinorUnits } from '../values/money';
import { isPdfFingerprint, sameReceipt, type ReceiptFingerprint } from './receipt-fingerprint';

/**
 * Two records whose dates are at most this many days apart can be the same purchase: a card
 * purchase is dated on the receipt the day it was made and on the statement the day it posted,
 * one to three days later over a weekend. A monthly bill is ~30 days from the last one.
 */
export const DUPLICATE_DATE_TOLERANCE_DAYS = 3;
/**
 * Two NOK amounts this close can be the same purchase: 0.5 % of the amount, at least
 * DUPLICATE_AMOUNT_MIN_SLACK øre. A typo of a few øre or a conversion rounded another way is the
 * same purchase; two different purchases of one merchant within the days rarely come this close.
 */
export const DUPLICATE_AMOUNT_TOLERANCE_PER_MILLE = 5;
export const DUPLICATE_AMOUNT_MIN_SLACK: MinorUnits = 5;
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
  /** The NOK amount paid, for another currency (null for NOK). */
  readonly amountNok: MinorUnits | null;
  readonly date: AccountingDate;
  /** Hex SHA-256 of the receipt's bytes, when it has one. */
  readonly receiptSha256: string | null;
  /** The receipt's fingerprint (receipt-fingerprint.ts), when it has one that could be computed. */
  readonly receiptFingerprint: ReceiptFingerprint | null;
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

export type DuplicateGround = 'same_receipt' | 'same_receipt_content' | 'same_purchase' | 'same_supplier_invoice';

/** One earlier record the proposal may repeat, with the reason a reviewer reads. */
export interface DuplicateMatch {
  readonly source: 'proposal' | 'booking';
  /** The earlier proposal's id, or the provider's booking id. */
  readonly id: string;
  readonly ground: DuplicateGround;
  readonly reason: string;
}

/** What the books paid in NOK: `amountNok` for another currency, else the amount. */
export function nokAmountOf(record: {
  readonly amount: MinorUnits;
  readonly amountNok: MinorUnits | null;
}): MinorUnits {
  return record.amountNok ?? record.amount;
}

/** The NOK amounts that can be the same purchase as `nok`, as an inclusive range. */
export function duplicateAmountRange(nok: MinorUnits): { min: MinorUnits; max: MinorUnits } {
  const slack = Math.max(DUPLICATE_AMOUNT_MIN_SLACK, Math.floor((nok * DUPLICATE_AMOUNT_TOLERANCE_PER_MILLE) / 1000));
  return { min: Math.max(0, nok - slack), max: nok + slack };
}

/**
 * The earlier records `probe` may repeat:
 *
 * - a proposal with the same receipt: identical bytes (SHA-256) or a PDF of the same content,
 *   whatever its amount and date; an image of the same picture (its perceptual hash) dated at most
 *   DUPLICATE_DATE_TOLERANCE_DAYS away, whatever its amount (sameReceiptContent);
 * - a proposal or provider booking of the same purchase: the same merchant (normalised:
 *   `SPOTIFY AB *P2B9C1X` is Spotify), a NOK amount (`amountNok` for another currency, so a
 *   purchase sent once in NOK and once in EUR is one) within duplicateAmountRange, and a date at
 *   most DUPLICATE_DATE_TOLERANCE_DAYS away.
 *
 * A monthly subscription — same merchant and price a month apart, another receipt — is none.
 * Sorted: same receipt first, then by id, so the reasons are stable.
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
  const amounts = duplicateAmountRange(nokAmountOf(probe));
  const samePurchase = (merchant: string, nok: MinorUnits, date: AccountingDate) =>
    key !== '' &&
    normalizeMerchant(merchant) === key &&
    nok >= amounts.min &&
    nok <= amounts.max &&
    daysApart(date, probe.date) <= DUPLICATE_DATE_TOLERANCE_DAYS;
  const matches: DuplicateMatch[] = [];
  for (const earlier of proposals) {
    if (earlier.status === 'REJECTED') continue;
    const ground: DuplicateGround | null =
      probe.receiptSha256 !== null && earlier.receipt?.sha256 === probe.receiptSha256
        ? 'same_receipt'
        : sameReceiptContent(probe, earlier)
          ? 'same_receipt_content'
          : samePurchase(earlier.merchant, nokAmountOf(earlier), earlier.date)
            ? 'same_purchase'
            : null;
    if (ground === null) continue;
    matches.push({ source: 'proposal', id: earlier.id, ground, reason: proposalReason(earlier, ground) });
  }
  for (const booking of bookings) {
    if (!samePurchase(booking.merchant, booking.amount, booking.date)) continue;
    matches.push({
      source: 'booking',
      id: booking.bookingId,
      ground: 'same_purchase',
      reason:
        `possible duplicate of ${booking.provider} ${booking.kind} ${booking.bookingId} already in the books ` +
        `(${booking.merchant}, NOK ${formatMoney(booking.amount)}, ${booking.date}): ${SAME_PURCHASE}`,
    });
  }
  const receiptFirst = (match: DuplicateMatch) => Number(match.ground !== 'same_purchase');
  return matches.sort((a, b) => receiptFirst(b) - receiptFirst(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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

/**
 * The earlier supplier invoices `probe` repeats: the company's proposals, not rejected, of the same
 * supplier (organisation number) and invoice number, whatever their amount, date or age — a
 * supplier invoice is booked once. Added to `matches` (an earlier proposal found on another ground
 * too is named once, as the same supplier invoice). Anything but a supplier invoice has none.
 */
export function withSupplierInvoiceTwins(
  probe: Pick<Proposal, 'kind' | 'supplier' | 'invoiceNumber'> & { readonly id?: string },
  earlier: readonly Proposal[],
  matches: readonly DuplicateMatch[],
): DuplicateMatch[] {
  const twins = earlier.filter((p) => p.id !== probe.id && isSupplierInvoiceTwin(probe, p));
  if (twins.length === 0) return [...matches];
  const ids = new Set(twins.map((p) => p.id));
  const ground: DuplicateGround = 'same_supplier_invoice';
  return [
    ...twins.map((p) => ({ source: 'proposal' as const, id: p.id, ground, reason: proposalReason(p, ground) })),
    ...matches.filter((m) => m.source !== 'proposal' || !ids.has(m.id)),
  ];
}

/**
 * An invoice number as invoices are told apart: spaces, tabs and line breaks dropped and ASCII
 * letters upper-cased, so that `F 1001` and `f1001` are one invoice. Only ASCII, so that
 * PostgreSQL's `translate` (the index of the supplier-invoice look-up) computes exactly the same.
 */
export function normalizeInvoiceNumber(invoiceNumber: string): string {
  return invoiceNumber.replace(/[ \t\r\n]/g, '').replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

/** Whether `earlier` is `probe`'s supplier invoice again: same supplier and invoice number (normalised), not rejected. */
function isSupplierInvoiceTwin(
  probe: Pick<Proposal, 'kind' | 'supplier' | 'invoiceNumber'>,
  earlier: Proposal,
): boolean {
  return (
    probe.kind === 'supplier_invoice' &&
    earlier.kind === 'supplier_invoice' &&
    earlier.status !== 'REJECTED' &&
    probe.supplier !== null &&
    probe.invoiceNumber !== null &&
    earlier.supplier?.organizationNumber === probe.supplier.organizationNumber &&
    earlier.invoiceNumber !== null &&
    normalizeInvoiceNumber(earlier.invoiceNumber) === normalizeInvoiceNumber(probe.invoiceNumber)
  );
}

/** The first day of the lookback: DUPLICATE_LOOKBACK_MONTHS before `now` (UTC). */
export function duplicateLookbackStart(now: Date): Date {
  const start = new Date(now.getTime());
  start.setUTCMonth(start.getUTCMonth() - DUPLICATE_LOOKBACK_MONTHS);
  return start;
}

/**
 * The dates within DUPLICATE_DATE_TOLERANCE_DAYS of `date`, as an inclusive range that stays
 * within the four-digit years an accounting date has (so within the dates PostgreSQL takes):
 * 9999-12-31's window ends on that day.
 */
export function duplicateDateWindow(date: AccountingDate): { from: AccountingDate; to: AccountingDate } {
  return { from: shiftDays(date, -DUPLICATE_DATE_TOLERANCE_DAYS), to: shiftDays(date, DUPLICATE_DATE_TOLERANCE_DAYS) };
}

/**
 * Whether the earlier proposal's receipt is the probe's in other bytes: a PDF of the same content
 * whatever the dates, an image within RECEIPT_IMAGE_HASH_MAX_DISTANCE (the same pixels with other
 * bytes, re-encoded, resized) dated at most DUPLICATE_DATE_TOLERANCE_DAYS apart. The dates bound
 * the images because photos of two receipts printed from one template (a subscription's, another
 * month) can have the same perceptual hash; an identical file is found by its SHA-256 at any date.
 */
function sameReceiptContent(probe: DuplicateProbe, earlier: Proposal): boolean {
  const [a, b] = [probe.receiptFingerprint, earlier.receiptFingerprint];
  if (a === null || b === null || !sameReceipt(a, b)) return false;
  return isPdfFingerprint(a) || daysApart(probe.date, earlier.date) <= DUPLICATE_DATE_TOLERANCE_DAYS;
}

const SAME_PURCHASE = `same merchant, NOK amount within ${DUPLICATE_AMOUNT_TOLERANCE_PER_MILLE / 10} % and a date within ${DUPLICATE_DATE_TOLERANCE_DAYS} days`;

const GROUNDS: Readonly<Record<DuplicateGround, string>> = {
  same_receipt: 'the same receipt (identical file)',
  same_receipt_content: 'the same receipt (the same image or PDF content in another file)',
  same_purchase: `the ${SAME_PURCHASE}`,
  same_supplier_invoice: 'the same supplier invoice (supplier organisation number and invoice number)',
};

function proposalReason(earlier: Proposal, ground: DuplicateGround): string {
  const booked = earlier.booking ? `, booked as ${earlier.booking.provider} ${earlier.booking.bookingId}` : '';
  const nok = earlier.amountNok === null ? '' : ` (NOK ${formatMoney(earlier.amountNok)})`;
  return (
    `possible duplicate of proposal ${earlier.id} (${earlier.merchant}, ${earlier.currency} ` +
    `${formatMoney(earlier.amount)}${nok}, ${earlier.date}, ${earlier.status}${booked}): ${GROUNDS[ground]}`
  );
}

const DAY_MS = 86_400_000;

function daysApart(a: AccountingDate, b: AccountingDate): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY_MS;
}

/** The first and last instants of the four-digit years. */
const FIRST_DAY_MS = Date.parse('0001-01-01T00:00:00Z');
const LAST_DAY_MS = Date.parse('9999-12-31T00:00:00Z');

/** `date` moved by `days`, kept within the four-digit years. */
function shiftDays(date: AccountingDate, days: number): AccountingDate {
  const shifted = Date.parse(`${date}T00:00:00Z`) + days * DAY_MS;
  return new Date(Math.min(LAST_DAY_MS, Math.max(FIRST_DAY_MS, shifted))).toISOString().slice(0, 10);
}
