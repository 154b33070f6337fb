import {
  BookingLine,
  ExpenseBooking,
  FIKEN_PURCHASE_VAT_TYPES,
  ProviderError,
  vatOfGross,
  type PaidWith,
} from '@app/domain';
import { bookingText, fitText, readableReference } from '../shared/booking-text';
import { asString, Json } from '../shared/json';
import { percentToHundredths } from '../shared/money';

/** `orderLine.description` in Fiken's definition: `maxLength: 200`. */
const MAX_LINE_DESCRIPTION = 200;

/** The standard VAT codes of a domestic purchase with deductible VAT inside the gross amount. */
const DEDUCTIBLE_CODES = new Set(['1', '11', '12', '13']);

/** What the purchase builder reads from the company's chart. */
export interface FikenChart {
  /** The chart's accounts numbered `number` (the plain account and its sub-ledgers), as GET /accounts lists them. */
  accounts(number: number): Promise<Json[]>;
  /** The company's bank accounts (GET /bankAccounts): `accountCode`, `type`, `inactive`. */
  bankAccounts(): Promise<Json[]>;
  /** The id of the supplier contact with this organisation number, created when there is none. */
  supplierId(booking: ExpenseBooking): Promise<number>;
}

/**
 * The marker a supplier invoice's first line carries, since its `identifier` is the supplier's
 * invoice number: our readable reference in brackets, found again by findBookingByReference.
 */
export function referenceMarker(reference: string): string {
  return `[${readableReference(reference)}]`;
}

/**
 * The `POST /purchases` body of a booking: one order line per booking line (its account, the
 * Fiken VAT type of its standard code, net and VAT in øre, or in the currency's cents for a foreign
 * purchase). An expense is a `cash_purchase` paid from the payment account; a supplier invoice is an
 * unpaid `supplier` purchase with the supplier contact, due date, invoice number and KID.
 */
export async function purchaseBody(booking: ExpenseBooking, chart: FikenChart): Promise<Json> {
  const foreign = booking.currency !== 'NOK';
  const supplierInvoice = booking.kind === 'supplier_invoice';
  const text = bookingText(booking);
  const lines = booking.lines.map((line, index) => {
    const own = line.description?.trim();
    const described = own ? bookingText({ merchant: booking.merchant, description: own }) : text;
    const suffix = index === 0 ? lineSuffix(booking) : '';
    const description = suffix
      ? `${fitText(described, MAX_LINE_DESCRIPTION - suffix.length - 1)} ${suffix}`
      : fitText(described, MAX_LINE_DESCRIPTION);
    const { net, vat, vatType } = orderLineAmounts(line, index);
    return {
      description,
      ...(foreign ? { netPriceInCurrency: net, vatInCurrency: vat } : { netPrice: net, vat }),
      account: line.accountCode,
      vatType,
    };
  });
  if (supplierInvoice) {
    if (!booking.supplier || !booking.invoiceNumber || !booking.dueDate) {
      throw new ProviderError(
        'fiken',
        'rejected',
        'a supplier invoice needs its supplier, invoice number and due date',
      );
    }
    const supplierId = await chart.supplierId(booking);
    return {
      identifier: booking.invoiceNumber,
      date: booking.date,
      dueDate: booking.dueDate,
      kind: 'supplier',
      paid: false,
      supplierId,
      currency: booking.currency,
      ...(booking.supplier.kid ? { kid: booking.supplier.kid } : {}),
      lines,
    };
  }
  const paymentAccount = await resolvePaymentAccount(booking, chart);
  return {
    // Shown as the invoice number in Fiken: a readable form of our reference, found again by it.
    identifier: readableReference(booking.reference),
    date: booking.date,
    kind: 'cash_purchase',
    paid: true,
    paymentDate: booking.date,
    paymentAccount,
    currency: booking.currency,
    ...(foreign ? { paymentAmountInNok: booking.amountNok } : {}),
    lines,
  };
}

/** What the first line adds to its text: the reference marker of a supplier invoice, whose outlay an employee's. */
function lineSuffix(booking: ExpenseBooking): string {
  if (booking.kind === 'supplier_invoice') return referenceMarker(booking.reference);
  if (booking.paidWith === 'employee' && booking.employee) return `(utlegg ${booking.employee.name})`;
  return '';
}

/**
 * A line's net and VAT as Fiken takes them, and its VAT type. Domestic deductible VAT is taken out
 * of the gross (rounded half up); a line without VAT (code 0: exempt, or VAT paid abroad) is its
 * gross; a reverse-charge line (86 / 88) is the amount paid with no VAT: Fiken computes the
 * Norwegian VAT from the type and posts it as both input and output VAT.
 */
function orderLineAmounts(line: BookingLine, index: number): { net: number; vat: number; vatType: string } {
  const vatType = line.vatCode === null ? undefined : FIKEN_PURCHASE_VAT_TYPES[line.vatCode];
  if (!vatType || line.vatCode === null) {
    throw new ProviderError(
      'fiken',
      'unknown_vat_rate',
      `line ${index + 1}: Fiken has no purchase VAT type for ${line.vatRate} % (standard code ${line.vatCode ?? 'none'})`,
    );
  }
  if (!Number.isSafeInteger(line.grossAmount) || line.grossAmount <= 0) {
    throw new RangeError(`line ${index + 1}: grossAmount must be a positive integer of minor units`);
  }
  if (!DEDUCTIBLE_CODES.has(line.vatCode)) return { net: line.grossAmount, vat: 0, vatType };
  const rate = percentToHundredths(line.vatRate);
  if (rate === null) {
    throw new ProviderError(
      'fiken',
      'unknown_vat_rate',
      `line ${index + 1}: "${line.vatRate}" is not a VAT percentage`,
    );
  }
  const vat = vatOfGross(line.grossAmount, rate);
  return { net: line.grossAmount - vat, vat, vatType };
}

/** The bank account type that pays for each way of paying (GET /bankAccounts `type`). */
const BANK_TYPE: Partial<Record<PaidWith, string>> = { bank: 'normal', company_card: 'credit_card' };

/**
 * The account the expense is paid from, as the chart names it: a configured sub-ledger
 * (`1920:10002`) as it is; a plain account number with no sub-ledger in the chart (`2910`) as it
 * is; else its one sub-ledger. When the number has several (a bank account and a card both on
 * 1920), the active bank account of the kind that pays (`normal` for the bank, `credit_card` for the
 * company card) is chosen, and for an employee's outlay the sub-ledger named after the employee.
 * Anything else is refused: nothing is guessed.
 */
export async function resolvePaymentAccount(booking: ExpenseBooking, chart: FikenChart): Promise<string> {
  const configured = booking.paymentAccount.trim();
  const number = Number(configured.slice(0, 4));
  if (!/^\d{4}(:\d{5})?$/.test(configured)) {
    throw new ProviderError('fiken', 'unknown_account', `payment account "${configured}" is not a Fiken account code`);
  }
  const codes = (await chart.accounts(number)).map((account) => ({
    code: asString(account.code),
    name: asString(account.name),
  }));
  const listed = codes.map((c) => c.code).join(', ') || 'none';
  if (configured.includes(':')) {
    if (codes.some((c) => c.code === configured)) return configured;
    throw new ProviderError(
      'fiken',
      'unknown_account',
      `payment account ${configured} is not in Fiken's chart (accounts ${number}: ${listed})`,
    );
  }
  const subLedgers = codes.filter((c) => c.code.startsWith(`${configured}:`));
  if (subLedgers.length === 0) {
    if (codes.some((c) => c.code === configured)) return configured;
    throw new ProviderError('fiken', 'unknown_account', `payment account ${configured} is not in Fiken's chart`);
  }
  if (subLedgers.length === 1) return subLedgers[0].code;
  const paidWith = booking.paidWith ?? 'bank';
  const bankType = BANK_TYPE[paidWith];
  if (bankType) {
    const candidates = new Set(subLedgers.map((c) => c.code));
    const matching = (await chart.bankAccounts()).filter(
      (b) => candidates.has(asString(b.accountCode)) && asString(b.type) === bankType && b.inactive !== true,
    );
    if (matching.length === 1) return asString(matching[0].accountCode);
  } else if (paidWith === 'employee' && booking.employee) {
    const name = booking.employee.name.trim().toLowerCase();
    const named = subLedgers.filter((c) => c.name.trim().toLowerCase() === name);
    if (named.length === 1) return named[0].code;
  }
  throw new ProviderError(
    'fiken',
    'unknown_account',
    `payment account ${configured} has several sub-ledgers in Fiken (${subLedgers
      .map((c) => `${c.code} ${c.name}`)
      .join(', ')}) and none is the one for paidWith ${paidWith}: configure the sub-ledger`,
  );
}
