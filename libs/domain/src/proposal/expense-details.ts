import { DomainError } from '../errors/domain-error';
import { FieldErrorCollector, invalidField } from '../values/field-errors';
import { AccountCode, parseAccountCode } from '../values/account-code';
import { AccountingDate, assertNotAhead, parseAccountingDate } from '../values/accounting-date';
import { CurrencyCode, parseCurrency } from '../values/currency';
import { MinorUnits, formatMoney, parsePositiveMoney } from '../values/money';
import { VatRate, parseVatRate } from '../values/vat-rate';
import { CHANNELS, Channel, isChannel } from '../identity/identity';
import { normalizeMerchant } from '../confidence/normalize-merchant';

import {
  PAID_WITH,
  PROPOSAL_KINDS,
  VAT_TREATMENTS,
  purchaseVatCode,
  type PaidWith,
  type ProposalKind,
  type VatTreatment,
} from '../bookkeeping/bookkeeping';
import { vatRateHundredths } from '../values/vat-rate';
import { isBankAccountNumber, isKid, isOrganizationNumber } from '../values/norwegian-numbers';

/** A proposal has at most this many lines. */
export const MAX_LINES = 20;
export const MAX_INVOICE_NUMBER_LENGTH = 100;
export const MAX_DEPARTMENT_ID_LENGTH = 64;

/**
 * Receipt content types the service accepts: what Tripletex (PDF, PNG, JPEG, TIFF) or Fiken (PDF,
 * PNG, JPEG, GIF) takes, and WebP. A type the company's provider does not take is converted before
 * the booking is made. HEIC is refused: neither provider takes it, and it cannot be converted here.
 */
export const RECEIPT_CONTENT_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/tiff',
  'image/webp',
] as const;

/** The currency the providers keep their books in; an expense in another one needs `amountNok`. */
export const BOOKKEEPING_CURRENCY = 'NOK';
/** A receipt is at most 7 MiB decoded (docs/api.md §1). */
export const MAX_RECEIPT_BYTES = 7 * 1024 * 1024;
export const MAX_MERCHANT_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 1000;

/**
 * What the domain knows about a receipt. The bytes live in persistence; the adapter that decodes
 * `dataBase64` computes `sizeBytes` and the hex `sha256` before the domain sees it.
 */
export interface ReceiptMetadata {
  readonly filename: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  readonly sha256: string;
}

/** The chat thread a proposal came from, where the user is told what happened to it. */
export interface ThreadRef {
  readonly channel: Channel;
  readonly threadId: string;
}

/** One line of a proposal: an account and VAT rate for part of the gross amount (minor units of `currency`). */
export interface ExpenseLine {
  readonly accountCode: AccountCode;
  readonly vatRate: VatRate;
  readonly amount: MinorUnits;
  readonly description: string | null;
}

/** The supplier of a supplier invoice: found (or created) at the provider by organisation number. */
export interface SupplierDetails {
  readonly name: string;
  /** Nine digits, mod-11 checked. */
  readonly organizationNumber: string;
  /** Norwegian bank account, eleven digits, mod-11 checked; null when not given. */
  readonly bankAccount: string | null;
  /** The KID to pay with (mod-10 or mod-11 checked); null when not given. */
  readonly kid: string | null;
}

/**
 * The validated content of a proposal. Amount in minor units. `lines` always holds at least one
 * line and adds up to `amount`; a proposal sent without `lines` has one line made of `accountCode`,
 * `vatRate` and `amount`. With several lines, `accountCode` and `vatRate` are those of the largest
 * line (the first of equals): what lists, patterns and messages show for the proposal as a whole.
 */
export interface ExpenseDetails {
  readonly kind: ProposalKind;
  readonly merchant: string;
  readonly amount: MinorUnits;
  readonly currency: CurrencyCode;
  /**
   * The amount actually paid in NOK (what left the bank account), for an expense in another
   * currency; null for a NOK expense. The providers book it and keep `amount` as the currency amount.
   */
  readonly amountNok: MinorUnits | null;
  readonly date: AccountingDate;
  readonly accountCode: AccountCode;
  readonly vatRate: VatRate;
  readonly description: string | null;
  readonly receipt: ReceiptMetadata | null;
  readonly thread: ThreadRef | null;
  /** How an expense was paid; null for a supplier invoice (unpaid: accounts payable). */
  readonly paidWith: PaidWith | null;
  readonly vatTreatment: VatTreatment;
  readonly lines: readonly ExpenseLine[];
  /** A supplier invoice's supplier, invoice number and due date; null for an expense. */
  readonly supplier: SupplierDetails | null;
  readonly invoiceNumber: string | null;
  readonly dueDate: AccountingDate | null;
  /** The provider's department id the booking is posted on, where the account requires one. */
  readonly departmentId: string | null;
}

/** The wire shape (docs/api.md §4.1) with the receipt already reduced to metadata. */
export interface ExpenseDetailsInput {
  kind?: unknown;
  merchant?: unknown;
  amount?: unknown;
  currency?: unknown;
  amountNok?: unknown;
  date?: unknown;
  accountCode?: unknown;
  vatRate?: unknown;
  description?: unknown;
  receipt?: { filename?: unknown; contentType?: unknown; sizeBytes?: unknown; sha256?: unknown } | null;
  thread?: { channel?: unknown; threadId?: unknown } | null;
  paidWith?: unknown;
  vatTreatment?: unknown;
  lines?: unknown;
  supplier?: unknown;
  invoiceNumber?: unknown;
  dueDate?: unknown;
  departmentId?: unknown;
}

function parseText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') invalidField(field, 'must be a non-empty string');
  const text = value.trim();
  if (text.length > max) invalidField(field, `must be at most ${max} characters`);
  return text;
}

function parseMerchant(value: unknown): string {
  const merchant = parseText(value, 'merchant', MAX_MERCHANT_LENGTH);
  if (normalizeMerchant(merchant) === '')
    invalidField('merchant', 'must contain a name, not only punctuation or numbers');
  return merchant;
}

function parseReceipt(
  value: NonNullable<ExpenseDetailsInput['receipt']>,
  errors: FieldErrorCollector,
): ReceiptMetadata | null {
  const filename = errors.check(() => parseText(value.filename, 'receipt.filename', 255));
  const contentType = errors.check(() => {
    if (typeof value.contentType === 'string' && /^image\/hei[cf]/.test(value.contentType)) {
      invalidField(
        'receipt.contentType',
        `HEIC/HEIF is not accepted: neither Tripletex nor Fiken takes it; send one of ${RECEIPT_CONTENT_TYPES.join(', ')}`,
      );
    }
    if (
      typeof value.contentType !== 'string' ||
      !(RECEIPT_CONTENT_TYPES as readonly string[]).includes(value.contentType)
    ) {
      invalidField('receipt.contentType', `must be one of ${RECEIPT_CONTENT_TYPES.join(', ')}`);
    }
    return value.contentType;
  });
  const sizeBytes = errors.check(() => {
    const size = value.sizeBytes;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0)
      invalidField('receipt', 'must not be empty');
    if (size > MAX_RECEIPT_BYTES) invalidField('receipt', `must be at most ${MAX_RECEIPT_BYTES} bytes (7 MiB) decoded`);
    return size;
  });
  const sha256 = errors.check(() => {
    if (typeof value.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(value.sha256)) {
      invalidField('receipt.sha256', 'must be a lowercase hex SHA-256 digest');
    }
    return value.sha256;
  });
  if (filename === undefined || contentType === undefined || sizeBytes === undefined || sha256 === undefined)
    return null;
  return { filename, contentType, sizeBytes, sha256 };
}

function parseThread(value: NonNullable<ExpenseDetailsInput['thread']>, errors: FieldErrorCollector): ThreadRef | null {
  const channel = errors.check(() => {
    if (!isChannel(value.channel)) invalidField('thread.channel', `must be one of ${CHANNELS.join(', ')}`);
    return value.channel;
  });
  const threadId = errors.check(() => parseText(value.threadId, 'thread.threadId', 255));
  return channel === undefined || threadId === undefined ? null : { channel, threadId };
}

/**
 * Validates a proposal's content and reports every bad field at once (ValidationFailed with
 * fieldErrors). The amount must be > 0; account code and VAT rate are checked for form here and
 * against the company's chart by the use case (`unknown_account_code`, `unknown_vat_rate`). An
 * expense in another currency than NOK must carry `amountNok`, the NOK amount paid
 * (`nok_amount_required`, 422): the providers book in NOK and convert nothing themselves. The date
 * may be at most MAX_DAYS_AHEAD after `today` (the date in Norway, osloDate of the Clock's now).
 *
 * The bookkeeping fields (docs/bookkeeping.md): `kind` (`expense` or `supplier_invoice`);
 * `paidWith` for an expense (default `bank`; a supplier invoice is unpaid and has none); `lines`
 * (1 to MAX_LINES, adding up to `amount` exactly; with lines, `accountCode` and `vatRate` may be
 * left out and are the largest line's); `vatTreatment` (default `domestic` for NOK; a foreign
 * purchase with VAT must name one: `vat_treatment_required`, 422; `reverse_charge` in NOK or at a
 * rate without a reverse-charge code: `vat_treatment_not_applicable`, 422); a supplier invoice's
 * `supplier` (organisation number mod-11, bank account mod-11, KID mod-10 or mod-11),
 * `invoiceNumber` and `dueDate` (not before `date`); `departmentId`.
 */
export function parseExpenseDetails(input: ExpenseDetailsInput, today: AccountingDate): ExpenseDetails {
  const errors = new FieldErrorCollector();
  const kind = errors.check(() => {
    if (!(PROPOSAL_KINDS as readonly unknown[]).includes(input.kind))
      invalidField('kind', `must be one of ${PROPOSAL_KINDS.join(', ')}`);
    return input.kind as ProposalKind;
  });
  const merchant = errors.check(() => parseMerchant(input.merchant));
  const amount = errors.check(() => parsePositiveMoney(input.amount));
  const currency = errors.check(() => parseCurrency(input.currency));
  const amountNok =
    input.amountNok === undefined || input.amountNok === null
      ? null
      : errors.check(() => parsePositiveMoney(input.amountNok, 'amountNok'));
  if (currency === BOOKKEEPING_CURRENCY && amountNok !== null && amountNok !== undefined && amountNok !== amount) {
    errors.add('amountNok', 'must equal amount for an expense in NOK (or be left out)');
  }
  const date = errors.check(() => {
    const parsed = parseAccountingDate(input.date);
    assertNotAhead(parsed, today);
    return parsed;
  });
  const linesGiven = !absent(input.lines);
  const lines = linesGiven ? (errors.check(() => parseLines(input.lines, errors)) ?? []) : null;
  const largest = lines ? largestLine(lines) : null;
  const accountCode =
    linesGiven && absent(input.accountCode)
      ? largest?.accountCode
      : errors.check(() => parseAccountCode(input.accountCode));
  const vatRate =
    linesGiven && absent(input.vatRate) ? largest?.vatRate : errors.check(() => parseVatRate(input.vatRate));
  if (largest && accountCode !== undefined && accountCode !== largest.accountCode)
    errors.add('accountCode', "accountCode must be the largest line's account (or be left out when lines are given)");
  if (largest && vatRate !== undefined && vatRate !== largest.vatRate)
    errors.add('vatRate', "vatRate must be the largest line's VAT rate (or be left out when lines are given)");
  if (lines && lines.length > 0 && amount !== undefined) {
    const sum = lines.reduce((total, line) => total + line.amount, 0);
    if (sum !== amount)
      errors.add(
        'lines',
        `lines: the amounts must add up to amount exactly (${formatMoney(sum)} ≠ ${formatMoney(amount)})`,
      );
  }
  const description = absent(input.description)
    ? null
    : errors.check(() => parseText(input.description, 'description', MAX_DESCRIPTION_LENGTH));
  const receipt = input.receipt ? parseReceipt(input.receipt, errors) : null;
  const thread = input.thread ? parseThread(input.thread, errors) : null;
  const paidWith = errors.check(() => parsePaidWith(input.paidWith, kind));
  const vatTreatment = absent(input.vatTreatment)
    ? null
    : errors.check(() => {
        if (!(VAT_TREATMENTS as readonly unknown[]).includes(input.vatTreatment))
          invalidField('vatTreatment', `must be one of ${VAT_TREATMENTS.join(', ')}`);
        return input.vatTreatment as VatTreatment;
      });
  const invoice = parseInvoice(input, kind, date, errors);
  const departmentId = absent(input.departmentId)
    ? null
    : errors.check(() => parseText(input.departmentId, 'departmentId', MAX_DEPARTMENT_ID_LENGTH));
  errors.throwIfAny('the proposal is invalid');
  if (currency !== BOOKKEEPING_CURRENCY && amountNok === null) throw new NokAmountRequired(currency as string);
  const finalLines: readonly ExpenseLine[] = lines ?? [
    {
      accountCode: accountCode as AccountCode,
      vatRate: vatRate as VatRate,
      amount: amount as MinorUnits,
      description: description ?? null,
    },
  ];
  const treatment = resolveVatTreatment(vatTreatment ?? null, currency as CurrencyCode, finalLines, lines !== null);
  return {
    kind: kind as ProposalKind,
    merchant: merchant as string,
    amount: amount as MinorUnits,
    currency: currency as CurrencyCode,
    amountNok: currency === BOOKKEEPING_CURRENCY ? null : (amountNok as MinorUnits),
    date: date as AccountingDate,
    accountCode: accountCode as AccountCode,
    vatRate: vatRate as VatRate,
    description: description ?? null,
    receipt,
    thread,
    paidWith: paidWith ?? null,
    vatTreatment: treatment,
    lines: finalLines,
    supplier: invoice.supplier,
    invoiceNumber: invoice.invoiceNumber,
    dueDate: invoice.dueDate,
    departmentId: departmentId ?? null,
  };
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

function parseLines(value: unknown, errors: FieldErrorCollector): ExpenseLine[] {
  if (!Array.isArray(value)) invalidField('lines', 'must be an array of lines');
  if (value.length === 0) invalidField('lines', 'must hold at least one line (or be left out)');
  if (value.length > MAX_LINES) invalidField('lines', `must hold at most ${MAX_LINES} lines (got ${value.length})`);
  const lines: ExpenseLine[] = [];
  value.forEach((raw: unknown, index) => {
    const at = `lines[${index}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      errors.add(at, `${at} must be an object {accountCode, vatRate, amount, description?}`);
      return;
    }
    const line = raw as Record<string, unknown>;
    const accountCode = errors.check(() => parseAccountCode(line.accountCode, `${at}.accountCode`));
    const vatRate = errors.check(() => parseVatRate(line.vatRate, `${at}.vatRate`));
    const amount = errors.check(() => parsePositiveMoney(line.amount, `${at}.amount`));
    const description = absent(line.description)
      ? null
      : errors.check(() => parseText(line.description, `${at}.description`, MAX_DESCRIPTION_LENGTH));
    if (accountCode === undefined || vatRate === undefined || amount === undefined || description === undefined) return;
    lines.push({ accountCode, vatRate, amount, description });
  });
  // Bad lines were collected above; the whole list is unusable then.
  if (lines.length !== value.length) return [];
  return lines;
}

/** The largest line (the first of equals): its account and rate stand for the proposal as a whole. */
function largestLine(lines: readonly ExpenseLine[]): ExpenseLine | null {
  if (lines.length === 0) return null;
  return lines.reduce((best, line) => (line.amount > best.amount ? line : best));
}

function parsePaidWith(value: unknown, kind: ProposalKind | undefined): PaidWith | null {
  if (kind === 'supplier_invoice') {
    if (!absent(value))
      invalidField('paidWith', 'must be left out for a supplier invoice: it is unpaid (accounts payable)');
    return null;
  }
  if (absent(value)) return 'bank';
  if (!(PAID_WITH as readonly unknown[]).includes(value))
    invalidField('paidWith', `must be one of ${PAID_WITH.join(', ')}`);
  return value as PaidWith;
}

interface InvoiceFields {
  readonly supplier: SupplierDetails | null;
  readonly invoiceNumber: string | null;
  readonly dueDate: AccountingDate | null;
}

/** A supplier invoice's supplier, invoice number and due date: required for one, refused for an expense. */
function parseInvoice(
  input: ExpenseDetailsInput,
  kind: ProposalKind | undefined,
  date: AccountingDate | undefined,
  errors: FieldErrorCollector,
): InvoiceFields {
  const none: InvoiceFields = { supplier: null, invoiceNumber: null, dueDate: null };
  if (kind !== 'supplier_invoice') {
    if (kind === 'expense') {
      for (const field of ['supplier', 'invoiceNumber', 'dueDate'] as const) {
        if (!absent(input[field])) errors.add(field, `${field} is only for kind supplier_invoice`);
      }
    }
    return none;
  }
  const supplier = errors.check(() => parseSupplier(input.supplier, errors));
  const invoiceNumber = errors.check(() => {
    if (absent(input.invoiceNumber)) invalidField('invoiceNumber', 'is required for a supplier invoice');
    return parseText(input.invoiceNumber, 'invoiceNumber', MAX_INVOICE_NUMBER_LENGTH);
  });
  const dueDate = errors.check(() => {
    if (absent(input.dueDate)) invalidField('dueDate', 'is required for a supplier invoice');
    const parsed = parseAccountingDate(input.dueDate, 'dueDate');
    if (date !== undefined && parsed < date) invalidField('dueDate', `must not be before date (${date})`);
    return parsed;
  });
  return { supplier: supplier ?? null, invoiceNumber: invoiceNumber ?? null, dueDate: dueDate ?? null };
}

function parseSupplier(value: unknown, errors: FieldErrorCollector): SupplierDetails | null {
  if (absent(value)) invalidField('supplier', 'is required for a supplier invoice: {name, organizationNumber}');
  if (typeof value !== 'object' || Array.isArray(value))
    invalidField('supplier', 'must be an object {name, organizationNumber, bankAccount?, kid?}');
  const raw = value as Record<string, unknown>;
  const name = errors.check(() => parseText(raw.name, 'supplier.name', MAX_MERCHANT_LENGTH));
  const organizationNumber = errors.check(() => {
    const text = typeof raw.organizationNumber === 'string' ? raw.organizationNumber.replace(/\s/g, '') : null;
    if (text === null || !isOrganizationNumber(text))
      invalidField(
        'supplier.organizationNumber',
        'must be a Norwegian organisation number: 9 digits with a valid mod-11 check digit',
      );
    return text;
  });
  const bankAccount = absent(raw.bankAccount)
    ? null
    : errors.check(() => {
        const text = typeof raw.bankAccount === 'string' ? raw.bankAccount.replace(/[\s.]/g, '') : null;
        if (text === null || !isBankAccountNumber(text))
          invalidField(
            'supplier.bankAccount',
            'must be a Norwegian bank account: 11 digits with a valid mod-11 check digit',
          );
        return text;
      });
  const kid = absent(raw.kid)
    ? null
    : errors.check(() => {
        if (typeof raw.kid !== 'string' || !isKid(raw.kid))
          invalidField('supplier.kid', 'must be a KID: 2 to 25 digits with a valid mod-10 or mod-11 check digit');
        return raw.kid;
      });
  if (name === undefined || organizationNumber === undefined || bankAccount === undefined || kid === undefined)
    return null;
  return { name, organizationNumber, bankAccount, kid };
}

/**
 * The VAT treatment of a valid proposal. NOK: `domestic` unless named; `reverse_charge` is for a
 * service bought abroad, paid in a foreign currency, and refused in NOK. A foreign currency with VAT
 * on any line must name its treatment; one without VAT is `foreign_no_deduction`. Under reverse
 * charge, a rate without a reverse-charge code (only 25 % and 12 % have one) is refused, naming the line.
 */
function resolveVatTreatment(
  given: VatTreatment | null,
  currency: CurrencyCode,
  lines: readonly ExpenseLine[],
  explicitLines: boolean,
): VatTreatment {
  const foreign = currency !== BOOKKEEPING_CURRENCY;
  if (given === null) {
    if (!foreign) return 'domestic';
    if (lines.some((line) => vatRateHundredths(line.vatRate) !== 0)) throw new VatTreatmentRequired(currency);
    return 'foreign_no_deduction';
  }
  if (given === 'reverse_charge') {
    if (!foreign) {
      throw new VatTreatmentNotApplicable(
        'reverse_charge is for services bought from abroad, paid in a foreign currency: a purchase in NOK is domestic',
        'vatTreatment',
      );
    }
    lines.forEach((line, index) => {
      if (purchaseVatCode(vatRateHundredths(line.vatRate), given) === null) {
        throw new VatTreatmentNotApplicable(
          `reverse charge has no VAT code for ${line.vatRate} %: only 25 % (code 86) and 12 % (code 88)`,
          explicitLines ? `lines[${index}].vatRate` : 'vatRate',
        );
      }
    });
  }
  return given;
}

/** A foreign purchase with VAT that does not say how its VAT is treated. */
export class VatTreatmentRequired extends DomainError {
  constructor(currency: string) {
    super(
      'vat_treatment_required',
      `a purchase in ${currency} with VAT needs vatTreatment: foreign_no_deduction (VAT paid abroad, booked gross) or reverse_charge (a service bought from abroad)`,
      [{ field: 'vatTreatment', message: `is required for a purchase in ${currency} with a non-zero VAT rate` }],
    );
  }
}

/** A VAT treatment that does not apply to the purchase (reverse charge in NOK, or at a rate without a code). */
export class VatTreatmentNotApplicable extends DomainError {
  constructor(message: string, field: string) {
    super('vat_treatment_not_applicable', message, [{ field, message }]);
  }
}

/** An expense in a foreign currency without the NOK amount actually paid. */
export class NokAmountRequired extends DomainError {
  constructor(currency: string) {
    super(
      'nok_amount_required',
      `an expense in ${currency} needs amountNok, the amount paid in NOK: Tripletex and Fiken book in NOK`,
      [{ field: 'amountNok', message: `is required when currency is not NOK (got ${currency})` }],
    );
  }
}

/** The fields of a proposal that have a default: a single-line expense paid from the bank, domestic VAT. */
type DefaultedField = 'paidWith' | 'vatTreatment' | 'lines' | 'supplier' | 'invoiceNumber' | 'dueDate' | 'departmentId';

/**
 * Completes details given without the defaulted fields: paid from the bank, domestic VAT, one line
 * made of `accountCode`, `vatRate`, `amount` and `description`, no supplier or department.
 */
export function withExpenseDefaults<T extends Omit<ExpenseDetails, DefaultedField>>(
  details: T & Partial<Pick<ExpenseDetails, DefaultedField>>,
): T & ExpenseDetails {
  return {
    ...details,
    paidWith: details.paidWith !== undefined ? details.paidWith : details.kind === 'expense' ? 'bank' : null,
    vatTreatment: details.vatTreatment ?? 'domestic',
    lines: details.lines ?? [
      {
        accountCode: details.accountCode,
        vatRate: details.vatRate,
        amount: details.amount,
        description: details.description,
      },
    ],
    supplier: details.supplier ?? null,
    invoiceNumber: details.invoiceNumber ?? null,
    dueDate: details.dueDate ?? null,
    departmentId: details.departmentId ?? null,
  };
}
