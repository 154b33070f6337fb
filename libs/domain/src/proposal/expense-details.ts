import { DomainError } from '../errors/domain-error';
import { FieldErrorCollector, invalidField } from '../values/field-errors';
import { AccountCode, parseAccountCode } from '../values/account-code';
import { AccountingDate, assertNotAhead, parseAccountingDate } from '../values/accounting-date';
import { CurrencyCode, parseCurrency } from '../values/currency';
import { MinorUnits, parsePositiveMoney } from '../values/money';
import { VatRate, parseVatRate } from '../values/vat-rate';
import { CHANNELS, Channel, isChannel } from '../identity/identity';
import { normalizeMerchant } from '../confidence/normalize-merchant';

import type { PaidWith, ProposalKind, VatTreatment } from '../bookkeeping/bookkeeping';

/** The kinds `parseExpenseDetails` accepts. */
const ACCEPTED_KINDS: readonly ProposalKind[] = ['expense'];

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
 */
export function parseExpenseDetails(input: ExpenseDetailsInput, today: AccountingDate): ExpenseDetails {
  const errors = new FieldErrorCollector();
  const kind = errors.check(() => {
    if (!(ACCEPTED_KINDS as readonly unknown[]).includes(input.kind))
      invalidField('kind', `must be one of ${ACCEPTED_KINDS.join(', ')}`);
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
  const accountCode = errors.check(() => parseAccountCode(input.accountCode));
  const vatRate = errors.check(() => parseVatRate(input.vatRate));
  const description =
    input.description === undefined || input.description === null
      ? null
      : errors.check(() => parseText(input.description, 'description', MAX_DESCRIPTION_LENGTH));
  const receipt = input.receipt ? parseReceipt(input.receipt, errors) : null;
  const thread = input.thread ? parseThread(input.thread, errors) : null;
  errors.throwIfAny('the proposal is invalid');
  if (currency !== BOOKKEEPING_CURRENCY && amountNok === null) throw new NokAmountRequired(currency as string);
  return withExpenseDefaults({
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
  });
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
