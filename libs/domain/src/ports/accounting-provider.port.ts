import type { PaidWith, Posting, ProposalKind, VatTreatment } from '../bookkeeping/bookkeeping';
import type { HistoricalBooking } from '../history/booking-history';
import type { ApiCallRecorder } from '../provider/api-call';
import type { ProviderConnection } from '../provider/provider-connection';

// Money is an integer of minor units (øre); dates are `YYYY-MM-DD` strings; ids are strings.

export interface ProviderAccount {
  /** The account number as the chart shows it: `"6540"`, `"2400:10001"` for a Fiken sub-ledger. */
  readonly code: string;
  readonly name: string;
  /** The account's default VAT type at the provider (Tripletex), when it has one. */
  readonly vatTypeId?: string;
  /** What the provider requires of a posting on the account; absent: no rule known. */
  readonly rules?: AccountRules;
  /**
   * The organisation number of the supplier whose sub-ledger this is, where the provider ties a
   * supplier to an account of its own (Fiken: a contact's `supplierAccountCode`). Absent otherwise.
   */
  readonly supplierOrganizationNumber?: string;
}

/**
 * The rules the provider enforces on a posting to an account (Tripletex: `vatLocked`,
 * `legalVatTypes`, `ledgerType`, `requiresDepartment`, `requiresProject`, `isInactive`; Fiken:
 * inactive accounts). VAT types are named by their standard (SAF-T) code.
 */
export interface AccountRules {
  /** The only VAT code the account takes when it is VAT-locked; null when not locked. */
  readonly lockedVatCode: string | null;
  /** The VAT codes the account allows; null: any. */
  readonly legalVatCodes: readonly string[] | null;
  /** The party a posting on the account must name: its sub-ledger. `general`: none. */
  readonly ledgerType: 'general' | 'customer' | 'supplier' | 'employee' | 'asset';
  readonly requiresDepartment: boolean;
  readonly requiresProject: boolean;
  readonly inactive: boolean;
}

export interface ProviderDepartment {
  readonly id: string;
  readonly name: string;
  readonly number: string | null;
}

export interface ProviderVatType {
  readonly id: string;
  /** The provider's code for it: Tripletex's VAT number (`"1"`), Fiken's type (`"HIGH"`). */
  readonly code: string;
  readonly name: string;
  /** Percentage as a decimal string: `"25"`, `"15"`, `"11.11"`, `"0"`. */
  readonly ratePercent: string;
  /** The Norwegian standard (SAF-T) VAT code it stands for (`"1"`, `"11"`, `"86"`), when known. */
  readonly standardCode?: string | null;
}

export interface ProviderEmployee {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string | null;
}

/** A kind of voucher the company's books name (Tripletex's voucher types; Fiken has none). */
export interface ProviderVoucherType {
  readonly id: string;
  readonly name: string;
}

/**
 * A supplier the provider has marked inactive (Tripletex `isInactive`), found by organisation
 * number. Fiken's deactivated contacts show instead as their inactive sub-ledgers in the chart.
 */
export interface ProviderInactiveSupplier {
  readonly id: string;
  readonly name: string;
  readonly organizationNumber: string;
}

/** The company's chart as the provider holds it (the service caches it as "context"). */
export interface ProviderContext {
  readonly accounts: ProviderAccount[];
  readonly departments: ProviderDepartment[];
  readonly vatTypes: ProviderVatType[];
  readonly employees: ProviderEmployee[];
  /** The company's voucher types; empty where the provider has none. */
  readonly voucherTypes: ProviderVoucherType[];
  /** The suppliers marked inactive that have an organisation number; empty where the chart says it instead. */
  readonly inactiveSuppliers: ProviderInactiveSupplier[];
}

export interface AccountBalance {
  readonly code: string;
  readonly name: string;
  /** Closing balance at the date, minor units; debit positive. */
  readonly balance: number;
}

/** A voucher (Tripletex) or journal entry (Fiken). */
export interface LedgerVoucher {
  readonly id: string;
  readonly number: string;
  readonly date: string;
  readonly description: string;
  /** Sum of the debit side, minor units, when the provider tells it. */
  readonly amount?: number;
  /** A document is attached: Tripletex's attachment, document or EDI document; a Fiken purchase's own attachments too. */
  readonly hasAttachment: boolean;
  /**
   * Whether the voucher is a purchase or an expense, which the bookkeeping rules want a receipt
   * for: it costs something (a debit on an expense account: classes 4, 6, 7 and 59xx). Sales,
   * customer and supplier payments, payroll, VAT settlements, transfers and opening balances need
   * none. Unset when the provider cannot tell: counted as needing one.
   */
  readonly needsReceipt?: boolean;
}

/** A customer invoice with an amount still outstanding. */
export interface OpenInvoice {
  readonly id: string;
  readonly number: string;
  readonly customerName: string;
  readonly issueDate: string;
  readonly dueDate: string;
  /** Gross amount invoiced, minor units. */
  readonly amount: number;
  /** Amount still to be paid, minor units, > 0. */
  readonly outstanding: number;
  readonly currency: string;
}

export interface Receipt {
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** One line of a booking: an account, a VAT code and a gross amount. */
export interface BookingLine {
  readonly accountCode: string;
  /** VAT percentage as a decimal string (`"25"`); with `vatCode`, what the line's VAT type is. */
  readonly vatRate: string;
  /**
   * The standard (SAF-T) VAT code of the line: `"1"`, `"11"`, `"13"`, `"0"`, `"86"` …; null when the
   * rate has none under the treatment (the provider refuses the booking with `unknown_vat_rate`).
   */
  readonly vatCode: string | null;
  /** VAT included (for reverse charge: the amount paid, no VAT in it), minor units of `currency`, > 0. */
  readonly grossAmount: number;
  /** The same in NOK øre (what is booked); equals `grossAmount` for NOK. The lines' NOK amounts add up to the total. */
  readonly grossAmountNok: number;
  readonly description: string | null;
}

/** The supplier of a supplier invoice, as the proposal names it. */
export interface BookingSupplier {
  readonly name: string;
  readonly organizationNumber: string;
  readonly bankAccount: string | null;
  readonly kid: string | null;
}

/** The employee an out-of-pocket expense is owed to, as the provider knows them. */
export interface BookingEmployee {
  /** The provider's employee id (Tripletex employee, Fiken contact), from the employee mapping. */
  readonly providerId: string | null;
  readonly name: string;
  readonly email: string;
}

/**
 * An approved proposal to book. `kind: 'expense'` is paid (the credit side is `paymentAccount`);
 * `kind: 'supplier_invoice'` is unpaid (the credit side is accounts payable, with the supplier,
 * invoice number, due date and KID). The top-level `accountCode`, `vatRate`, `grossAmount` and
 * `amountNok` are the proposal's totals / main line; `lines` is what is booked.
 */
export interface ExpenseBooking {
  readonly kind: ProposalKind;
  /** How an expense was paid; null for a supplier invoice. */
  readonly paidWith: PaidWith | null;
  readonly vatTreatment: VatTreatment;
  readonly lines: readonly BookingLine[];
  /** A supplier invoice's supplier, number and due date; null for an expense. */
  readonly supplier: BookingSupplier | null;
  readonly invoiceNumber: string | null;
  readonly dueDate: string | null;
  /** The employee an out-of-pocket expense is owed to (`paidWith: 'employee'`); null otherwise. */
  readonly employee: BookingEmployee | null;
  /** The provider's department id to post on; null for none. */
  readonly departmentId: string | null;
  /** Our reference (the proposal id), stored in the booking so that it can be found again. */
  readonly reference: string;
  readonly date: string;
  /** What was bought, when the submission said it; the booking's text is `merchant: description`. */
  readonly description: string | null;
  readonly merchant: string;
  readonly accountCode: string;
  /** VAT percentage as a decimal string: `"25"`, `"15"`, `"12"`, `"0"`. */
  readonly vatRate: string;
  /** Amount paid, VAT included, minor units of `currency`, > 0. */
  readonly grossAmount: number;
  /** ISO 4217. */
  readonly currency: string;
  /**
   * For a currency other than NOK: the NOK amount actually paid (minor units), which is what the
   * provider books; null for NOK. A foreign booking without it is refused before anything is sent.
   */
  readonly amountNok: number | null;
  /**
   * The credit side of an expense, from the company's payment accounts by `paidWith` (e.g. `"1920"`,
   * `"1920:10001"`, `"2910"`); for a supplier invoice the accounts-payable account (`"2400"`).
   */
  readonly paymentAccount: string;
  /**
   * The company's voucher types, from its cached context (so booking costs no call to read them);
   * the adapter picks the one for the booking's kind where the provider has such types. Absent or
   * empty: none is set.
   */
  readonly voucherTypes?: readonly ProviderVoucherType[];
  readonly receipt?: Receipt;
}

/** A booking at the provider: a Tripletex voucher id or a Fiken purchase id. */
export interface BookingRef {
  readonly bookingId: string;
  readonly hasAttachment: boolean;
}

/** One page of the booking history, and where to continue after it. */
export interface HistoryPage {
  readonly bookings: readonly HistoricalBooking[];
  /** Opaque: pass it back to continue after this page; null once the history is read. */
  readonly cursor: string | null;
  /** How many bookings the provider says the current phase holds, when it says (for progress). */
  readonly total: number | null;
}

/** Per-operation options. Pass a recorder to collect the calls for the event's `api_calls`. */
export interface ProviderCallOptions {
  readonly recorder?: ApiCallRecorder;
  /**
   * The longest a request of the call waits for the company's rate window at the provider to
   * reopen (its known pause, a 429's `Retry-After`), ms. A longer wait is not waited: the call fails
   * at once with a transient `rate_limited` ProviderError marked `windowClosed`, the request it
   * stopped at not carried out. Unsaid: the adapter waits (up to its `maxRetryAfterMs`).
   */
  readonly maxRateLimitWaitMs?: number;
}

/**
 * The accounting system a company books into (Tripletex or Fiken). Every method fails with a
 * `ProviderError` (`transient` tells whether retrying later may help); every HTTP call made is
 * reported to `options.recorder`, the failed ones included.
 */
export abstract class AccountingProvider {
  /** Accounts (active), departments, VAT types and employees. */
  abstract fetchContext(conn: ProviderConnection, options?: ProviderCallOptions): Promise<ProviderContext>;

  /**
   * The accounts' balances at the end of `date`, the same meaning on every provider: a balance-sheet
   * account (classes 1–2) its closing balance; a result account (classes 3–8) its movement in the
   * accounting year (the calendar year) up to and including `date`. Accounts without movement may
   * be left out.
   */
  abstract balances(conn: ProviderConnection, date: string, options?: ProviderCallOptions): Promise<AccountBalance[]>;

  /**
   * Vouchers / journal entries dated from `from` up to and including `to` (default: today), one
   * provider page per step, read as the caller iterates: memory stays bounded however large the
   * ledger. A caller works through a page before it asks for the next one.
   */
  abstract voucherPages(
    conn: ProviderConnection,
    from: string,
    to?: string,
    options?: ProviderCallOptions,
  ): AsyncIterable<readonly LedgerVoucher[]>;

  /** Customer invoices issued on or before `asOf` with an amount outstanding, one page per step. */
  abstract openInvoicePages(
    conn: ProviderConnection,
    asOf: string,
    options?: ProviderCallOptions,
  ): AsyncIterable<readonly OpenInvoice[]>;

  /**
   * The company's expense bookings dated from `from` up to and including `to`, one provider page per
   * step (Tripletex: supplier invoices, then vouchers; Fiken: purchases), each with the cursor to
   * continue from. Started again with a page's cursor it reads on from there, so an interrupted
   * import resumes. Bookings that are not an expense (sales, salaries, transfers) are left out, and
   * so are those the service booked itself (they carry its reference).
   */
  abstract bookingHistoryPages(
    conn: ProviderConnection,
    from: string,
    to: string,
    cursor: string | null,
    options?: ProviderCallOptions,
  ): AsyncIterable<HistoryPage>;

  /**
   * Books the expense (Tripletex: a voucher; Fiken: a cash purchase) carrying `booking.reference`,
   * then attaches the receipt when there is one. A create whose outcome is unknown (timeout,
   * dropped connection, 5xx) is looked up by reference before it is sent again. When the booking
   * was created but the receipt upload failed, the `ProviderError` carries `bookingId`.
   */
  abstract bookExpense(
    conn: ProviderConnection,
    booking: ExpenseBooking,
    options?: ProviderCallOptions,
  ): Promise<BookingRef>;

  /**
   * The postings of a booking as the provider's own ledger holds them, read back (Tripletex: the
   * voucher's postings; Fiken: the purchase's journal entry), in NOK øre with VAT codes and parties,
   * VAT postings the provider generated marked `generated`.
   */
  abstract bookedPostings(
    conn: ProviderConnection,
    bookingId: string,
    options?: ProviderCallOptions,
  ): Promise<Posting[]>;

  /** Attaches a receipt to an existing booking (after a booking whose upload failed). */
  abstract attachReceipt(
    conn: ProviderConnection,
    bookingId: string,
    receipt: Receipt,
    options?: ProviderCallOptions,
  ): Promise<void>;

  /**
   * The booking carrying our reference, or null when there is none. `dateHint` is the booking's
   * date: the search looks around it when the provider offers no direct filter.
   */
  abstract findBookingByReference(
    conn: ProviderConnection,
    reference: string,
    dateHint: string,
    options?: ProviderCallOptions,
  ): Promise<BookingRef | null>;
}
