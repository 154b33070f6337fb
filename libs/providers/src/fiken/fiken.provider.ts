import { Injectable } from '@nestjs/common';
import { FormData } from 'undici';
import {
  AccountBalance,
  AccountingProvider,
  AccountRules,
  BookingRef,
  Clock,
  ExpenseBooking,
  HistoricalBooking,
  HistoryPage,
  LedgerVoucher,
  OpenInvoice,
  Posting,
  ProviderCallOptions,
  ProviderConnection,
  ProviderContext,
  ProviderError,
  ProviderTokenStore,
  Receipt,
} from '@app/domain';
import { asFikenConnection, type FikenConnection } from './fiken-connection';
import { callScopeOf, ProviderHttp, retryAfterHeaderMs, type CallScope } from '../http/provider-http';
import { ResiliencePolicy, resilienceOptions } from '../http/resilience';
import { TransportError } from '../http/transport-error';
import { attachOnce, bookThenAttach } from '../shared/book-then-attach';
import type { ReceiptTarget } from '../shared/receipt-format';
import { assertIsoDate, osloDate } from '../shared/dates';
import { endOfPreviousYear, isResultAccount } from '../shared/balances';
import { readableReference } from '../shared/booking-text';
import { asArray, asNumber, asObject, asString, Json, mapPage } from '../shared/json';
import { validateBooking } from '../shared/validate-booking';
import { decodeHistoryCursor, encodeHistoryCursor, isExpenseAccount, needsReceipt } from '../shared/history';
import { FikenClient, idFromLocation } from './fiken-client';
import { FikenConfig, ResolvedFikenConfig, resolveFikenConfig } from './fiken.config';
import { describeFikenError } from './fiken-errors';
import { FikenTokens } from './fiken-tokens';
import { fikenVatTypes } from './fiken-vat';
import { FikenChart, purchaseBody, referenceMarker } from './fiken-purchase';
import { postingsOfPurchase } from './fiken-postings';
import type { SharedRequestSlots } from '../ports/shared-request-slots.port';

/** The file types Fiken takes as a booking's attachment. */
const FIKEN_RECEIPTS: ReceiptTarget = {
  provider: 'fiken',
  // "The filename. Must end with either .png, .jpeg, .jpg, .gif or .pdf" (addAttachmentToPurchase).
  receiptTypes: ['application/pdf', 'image/png', 'image/jpeg', 'image/gif'],
};

/**
 * The AccountingProvider adapter for Fiken API v2 (docs/providers.md: every call, the operation of
 * Fiken's definition it conforms to, and the decisions). Amounts are øre.
 */
@Injectable()
export class FikenProvider extends AccountingProvider {
  private readonly config: ResolvedFikenConfig;
  private readonly client: FikenClient;
  private readonly clock: Clock;

  /** `requestSlots`: the request slot shared with the service's other instances (none: this process's own). */
  constructor(config: FikenConfig, tokenStore: ProviderTokenStore, clock: Clock, requestSlots?: SharedRequestSlots) {
    super();
    this.config = resolveFikenConfig(config);
    this.clock = clock;
    const http = new ProviderHttp({
      provider: 'fiken',
      policy: new ResiliencePolicy('fiken', resilienceOptions(config.resilience)),
      describeError: describeFikenError,
      rateLimitWaitMs: (response) => retryAfterHeaderMs(response.headers),
      dispatcher: config.dispatcher,
    });
    const tokens = new FikenTokens(tokenStore, http, this.config, this.clock);
    this.client = new FikenClient(http, tokens, this.config, requestSlots);
  }

  async fetchContext(conn: ProviderConnection, options?: ProviderCallOptions): Promise<ProviderContext> {
    const c = asFikenConnection(conn);
    const call = callScopeOf(options);
    // Not paged: Fiken's documentation says so, and the endpoint answers every page alike (a paging
    // loop would read it forever). One request, every account.
    const listed = (await this.client.unpaged(c, '/accounts', {}, call)).map((item) => asObject(item));
    // Fiken's accounts carry no state; its bank accounts and contacts do (`inactive`): a closed bank
    // account's sub-ledger stays in the chart but takes no payments.
    const inactive = new Set<string>();
    for await (const bank of this.client.list(c, '/bankAccounts', {}, call)) {
      if (bank.inactive === true) inactive.add(asString(bank.accountCode));
    }
    // A deactivated supplier's sub-ledger (its `supplierAccountCode`) takes no new purchases either;
    // it keeps the supplier's organisation number, so that its invoices are refused at submission.
    const deactivatedSuppliers = new Map<string, string>();
    for await (const contact of this.client.list(c, '/contacts', { supplier: true, inactive: true }, call)) {
      if (contact.inactive === true && typeof contact.supplierAccountCode === 'string') {
        inactive.add(contact.supplierAccountCode);
        if (typeof contact.organizationNumber === 'string' && contact.organizationNumber !== '')
          deactivatedSuppliers.set(contact.supplierAccountCode, contact.organizationNumber);
      }
    }
    const accounts = listed.map((account) => {
      const code = asString(account.code);
      const supplierOrganizationNumber = deactivatedSuppliers.get(code);
      return {
        code,
        name: asString(account.name),
        rules: fikenAccountRules(code, inactive.has(code)),
        ...(supplierOrganizationNumber ? { supplierOrganizationNumber } : {}),
      };
    });
    // Fiken has no departments, VAT type, employee or voucher type endpoints: its fixed purchase VAT types stand in.
    return {
      accounts,
      departments: [],
      vatTypes: fikenVatTypes(),
      employees: [],
      voucherTypes: [],
      inactiveSuppliers: [],
    };
  }

  /**
   * `/accountBalances` gives every account's closing balance at a date, result accounts cumulative
   * across years. Result accounts are given the year's movement instead: the balance at `date` less
   * the balance at the end of the year before (read only when a result account has a balance).
   */
  async balances(conn: ProviderConnection, date: string, options?: ProviderCallOptions): Promise<AccountBalance[]> {
    assertIsoDate(date, 'date');
    const c = asFikenConnection(conn);
    const call = callScopeOf(options);
    const read = async (day: string): Promise<AccountBalance[]> => {
      const lines: AccountBalance[] = [];
      for await (const line of this.client.list(c, '/accountBalances', { date: day }, call)) {
        lines.push({
          code: asString(line.code),
          name: asString(line.name),
          balance: Math.round(asNumber(line.balance)),
        });
      }
      return lines;
    };
    const atDate = await read(date);
    if (!atDate.some((line) => isResultAccount(line.code) && line.balance !== 0)) return atDate;
    const before = new Map((await read(endOfPreviousYear(date))).map((line) => [line.code, line.balance]));
    return atDate.map((line) =>
      isResultAccount(line.code) ? { ...line, balance: line.balance - (before.get(line.code) ?? 0) } : line,
    );
  }

  async *voucherPages(
    conn: ProviderConnection,
    from: string,
    to?: string,
    options?: ProviderCallOptions,
  ): AsyncGenerator<LedgerVoucher[]> {
    assertIsoDate(from, 'from');
    const last = to ?? osloDate(this.clock.now());
    assertIsoDate(last, 'to');
    if (last < from) {
      return;
    }
    const c = asFikenConnection(conn);
    const call = callScopeOf(options);
    // A purchase's receipt is the purchase's own attachment, which its journal entry need not show:
    // the transactions of the period's purchases that carry one, read first (ids only).
    const documented = new Set<string>();
    const purchases = this.client.pages(c, '/purchases', { dateGe: from, dateLe: last }, call, 0, 'background');
    for await (const page of purchases) {
      for (const item of page) {
        const purchase = asObject(item);
        if (attachmentsOf(purchase).length > 0) documented.add(asString(purchase.transactionId));
      }
    }
    const entries = this.client.pages(c, '/journalEntries', { dateGe: from, dateLe: last }, call, 0, 'background');
    for await (const page of entries) {
      yield mapPage(page, (entry) => toLedgerVoucher(entry, from, last, documented));
    }
  }

  async *openInvoicePages(
    conn: ProviderConnection,
    asOf: string,
    options?: ProviderCallOptions,
  ): AsyncGenerator<OpenInvoice[]> {
    assertIsoDate(asOf, 'asOf');
    for await (const page of this.client.pages(
      asFikenConnection(conn),
      '/invoices',
      { settled: false, issueDateLe: asOf },
      callScopeOf(options),
      0,
      'background',
    )) {
      yield mapPage(page, (invoice) => toOpenInvoice(invoice, asOf));
    }
  }

  /**
   * GET /purchases dated in [from, to], oldest first, page by page: each purchase booked to the
   * account of its largest line, named by its supplier, else (a cash purchase) by that line's text.
   * Purchases the service booked itself (its readable reference as identifier) are left out.
   */
  async *bookingHistoryPages(
    conn: ProviderConnection,
    from: string,
    to: string,
    cursor: string | null,
    options?: ProviderCallOptions,
  ): AsyncGenerator<HistoryPage> {
    assertIsoDate(from, 'from');
    assertIsoDate(to, 'to');
    let page = decodeHistoryCursor('fiken', cursor).position;
    const query = { dateGe: from, dateLe: to, sortBy: 'date asc' };
    for await (const items of this.client.pages(
      asFikenConnection(conn),
      '/purchases',
      query,
      callScopeOf(options),
      page,
      'background',
    )) {
      page += 1;
      const bookings = items.flatMap((item) => {
        const booking = toPurchaseBooking(asObject(item));
        return booking ? [booking] : [];
      });
      yield { bookings, cursor: encodeHistoryCursor({ phase: 0, position: page }), total: null };
    }
    yield { bookings: [], cursor: null, total: null };
  }

  async bookExpense(
    conn: ProviderConnection,
    booking: ExpenseBooking,
    options?: ProviderCallOptions,
  ): Promise<BookingRef> {
    const c = asFikenConnection(conn);
    const call = callScopeOf(options);
    validateBooking('fiken', booking);
    if (booking.lines.length === 0) {
      throw new ProviderError('fiken', 'rejected', 'a purchase needs at least one line');
    }
    const foreign = booking.currency !== 'NOK';
    if (
      foreign &&
      booking.kind === 'expense' &&
      (booking.amountNok === null || !Number.isSafeInteger(booking.amountNok) || booking.amountNok <= 0)
    ) {
      throw new ProviderError(
        'fiken',
        'rejected',
        `a purchase in ${booking.currency} needs the NOK amount paid (paymentAmountInNok)`,
      );
    }
    return bookThenAttach(FIKEN_RECEIPTS, booking, {
      prepare: () => purchaseBody(booking, this.chart(c, call)),
      create: async (purchase) => {
        const response = await this.client.request(
          c,
          { method: 'POST', path: '/purchases', json: purchase, retryMode: 'not-processed-only' },
          call,
        );
        const bookingId = idFromLocation(response);
        if (!bookingId) {
          throw new TransportError('fiken', 'rejected', 'Fiken created the purchase without a Location header', {
            status: response.status,
            outcomeUnknown: false,
          });
        }
        return bookingId;
      },
      findByReference: () => this.findBookingByReference(c, booking.reference, booking.date, options),
      attach: (bookingId, receipt) => this.attachReceipt(c, bookingId, receipt, options),
      settleMs: this.config.settleBeforeLookupMs,
    });
  }

  async attachReceipt(
    conn: ProviderConnection,
    bookingId: string,
    receipt: Receipt,
    options?: ProviderCallOptions,
  ): Promise<void> {
    const c = asFikenConnection(conn);
    const call = callScopeOf(options);
    const purchasePath = `/purchases/${encodeURIComponent(bookingId)}`;
    await attachOnce(FIKEN_RECEIPTS, receipt, {
      upload: async (file) => {
        const form = new FormData();
        form.append('filename', file.filename);
        form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.filename);
        await this.client.request(
          c,
          {
            method: 'POST',
            path: `${purchasePath}/attachments`,
            // A cash purchase's receipt documents both: the sale ("may document the sale (i.e.
            // invoice, etc)") and its payment, made on the spot with the same receipt.
            query: { attachToPayment: true, attachToSale: true },
            form,
            retryMode: 'not-processed-only',
          },
          call,
        );
      },
      hasAttachment: async () => {
        const response = await this.client.request(c, { method: 'GET', path: purchasePath }, call);
        return attachmentsOf(asObject(response.body)).length > 0;
      },
      settleMs: this.config.settleBeforeLookupMs,
    });
  }

  /**
   * The purchase's postings read back from Fiken's ledger: GET /purchases/{id} for its transaction,
   * supplier, invoice number and due date, then GET /transactions/{transactionId} for the journal
   * entries Fiken made of it (fiken-postings.ts maps them).
   */
  async bookedPostings(conn: ProviderConnection, bookingId: string, options?: ProviderCallOptions): Promise<Posting[]> {
    const c = asFikenConnection(conn);
    const call = callScopeOf(options);
    const purchaseResponse = await this.client.request(
      c,
      { method: 'GET', path: `/purchases/${encodeURIComponent(bookingId)}` },
      call,
    );
    const purchase = asObject(purchaseResponse.body);
    const transactionId = purchase.transactionId;
    if (typeof transactionId !== 'number' && typeof transactionId !== 'string') {
      throw new ProviderError('fiken', 'rejected', `Fiken's purchase ${bookingId} names no transaction`);
    }
    const transactionResponse = await this.client.request(
      c,
      { method: 'GET', path: `/transactions/${encodeURIComponent(String(transactionId))}` },
      call,
    );
    const entries = asArray(asObject(transactionResponse.body).entries).map(asObject);
    // An employee's sub-ledger on 2910 is named after the employee: read its name from the chart.
    const names = new Map<string, string>();
    const employeeAccounts = entries
      .flatMap((entry) => asArray(entry.lines).map((line) => asString(asObject(line).account)))
      .filter((code) => code.startsWith('2910:'));
    if (employeeAccounts.length > 0) {
      for (const item of await this.client.unpaged(c, '/accounts', { fromAccount: 2910, toAccount: 2910 }, call)) {
        const account = asObject(item);
        names.set(asString(account.code), asString(account.name));
      }
    }
    return postingsOfPurchase(purchase, entries, names);
  }

  async findBookingByReference(
    conn: ProviderConnection,
    reference: string,
    dateHint: string,
    options?: ProviderCallOptions,
  ): Promise<BookingRef | null> {
    assertIsoDate(dateHint, 'dateHint');
    // GET /purchases filters by date but not by identifier, and sorts only by date: every purchase
    // of the booking's date (the date we sent) is read, page by page, and matched on the identifier.
    // The bare reference is what purchases booked before the readable form carry.
    // A supplier invoice's identifier is the supplier's invoice number: its first line carries the
    // readable reference in brackets instead.
    const identifiers = new Set([readableReference(reference), reference]);
    const marker = referenceMarker(reference);
    for await (const purchase of this.client.list(
      asFikenConnection(conn),
      '/purchases',
      { date: dateHint },
      callScopeOf(options),
    )) {
      if (identifiers.has(asString(purchase.identifier)) || carriesMarker(purchase, marker)) {
        return { bookingId: asString(purchase.purchaseId), hasAttachment: attachmentsOf(purchase).length > 0 };
      }
    }
    return null;
  }

  /** The chart reads and supplier lookup the purchase builder needs, recorded on `call`. */
  private chart(c: FikenConnection, call: CallScope): FikenChart {
    return {
      // Not paged (see fetchContext): one request per account number.
      accounts: async (number) =>
        (await this.client.unpaged(c, '/accounts', { fromAccount: number, toAccount: number }, call)).map((item) =>
          asObject(item),
        ),
      bankAccounts: async () => {
        const found: Json[] = [];
        for await (const bank of this.client.list(c, '/bankAccounts', {}, call)) found.push(bank);
        return found;
      },
      supplierId: (booking) => this.supplierId(c, booking, call),
    };
  }

  /**
   * The supplier contact of a supplier invoice: found by organisation number (GET /contacts
   * ?organizationNumber=&supplier=true), else created as a supplier (POST /contacts) with its name,
   * organisation number and bank account.
   */
  private async supplierId(c: FikenConnection, booking: ExpenseBooking, call: CallScope): Promise<number> {
    const supplier = booking.supplier;
    if (!supplier) throw new ProviderError('fiken', 'rejected', 'a supplier invoice needs its supplier');
    let inactive: string | null = null;
    for await (const contact of this.client.list(
      c,
      '/contacts',
      { organizationNumber: supplier.organizationNumber, supplier: true },
      call,
    )) {
      if (asString(contact.organizationNumber) !== supplier.organizationNumber) continue;
      if (contact.inactive !== true) return asNumber(contact.contactId);
      inactive = asString(contact.name);
    }
    if (inactive !== null) {
      // Not created again beside the deactivated one: the accountant reactivates it in Fiken.
      throw new ProviderError(
        'fiken',
        'rejected',
        `supplier ${supplier.organizationNumber} (${inactive}) is deactivated in Fiken: reactivate the contact`,
      );
    }
    const response = await this.client.request(
      c,
      {
        method: 'POST',
        path: '/contacts',
        json: {
          name: supplier.name,
          organizationNumber: supplier.organizationNumber,
          supplier: true,
          ...(supplier.bankAccount ? { bankAccountNumber: supplier.bankAccount } : {}),
        },
        retryMode: 'not-processed-only',
      },
      call,
    );
    const id = Number(idFromLocation(response));
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new TransportError('fiken', 'rejected', 'Fiken created the contact without a Location header', {
        status: response.status,
        outcomeUnknown: false,
      });
    }
    return id;
  }
}

/** Whether a purchase's first line ends with the reference marker of a supplier invoice we booked. */
function carriesMarker(purchase: Json, marker: string): boolean {
  const [first] = asArray(purchase.lines);
  return first !== undefined && asString(asObject(first).description ?? '').endsWith(marker);
}

/**
 * Fiken's rules for an account: no VAT lock, department or project (Fiken has none of these on an
 * account); a sub-ledger names its party (1500: customer, 2400: supplier, 2910: employee); a closed
 * bank account or a deactivated supplier's sub-ledger is inactive.
 */
function fikenAccountRules(code: string, inactive: boolean): AccountRules {
  const [number, sub] = code.split(':');
  const ledgerType: AccountRules['ledgerType'] =
    sub === undefined
      ? 'general'
      : number === '1500'
        ? 'customer'
        : number === '2400'
          ? 'supplier'
          : number === '2910'
            ? 'employee'
            : 'general';
  return {
    lockedVatCode: null,
    legalVatCodes: null,
    ledgerType,
    requiresDepartment: false,
    requiresProject: false,
    inactive,
  };
}

/** A purchase's attachments: `purchaseAttachments` in API v2 (`attachments` in older answers). */
function attachmentsOf(purchase: Json): unknown[] {
  return asArray(purchase.purchaseAttachments ?? purchase.attachments);
}

/** The debit side of a journal entry, øre: the larger of the positive and the negative line totals. */
function debitTotal(lines: unknown[]): number {
  const amounts = lines.map((line) => Math.round(asNumber(asObject(line).amount)));
  const debit = amounts.filter((a) => a > 0).reduce((sum, a) => sum + a, 0);
  const credit = amounts.filter((a) => a < 0).reduce((sum, a) => sum - a, 0);
  return credit === 0 ? debit : Math.max(debit, credit);
}

/** A journal entry as a `LedgerVoucher`; `undefined` when dated outside `from`–`to`. */
function toLedgerVoucher(
  entry: Json,
  from: string,
  to: string,
  documentedTransactions: ReadonlySet<string>,
): LedgerVoucher | undefined {
  const date = asString(entry.date);
  if (date < from || date > to) {
    return undefined;
  }
  const lines = asArray(entry.lines).map(asObject);
  const transactionId = entry.transactionId === undefined ? null : asString(entry.transactionId);
  return {
    id: asString(entry.journalEntryId),
    number: asString(entry.journalEntryNumber),
    date,
    description: asString(entry.description),
    amount: debitTotal(lines),
    hasAttachment:
      asArray(entry.attachments).length > 0 || (transactionId !== null && documentedTransactions.has(transactionId)),
    needsReceipt: needsReceipt(
      lines.map((line) => ({ account: asString(line.account), amount: Math.round(asNumber(line.amount)) })),
    ),
  };
}

/**
 * An invoice as an `OpenInvoice`, in the invoice's own currency: `gross` is in it, and so is the
 * sale's `outstandingBalanceInCurrency` (its `outstandingBalance` is NOK) when the currency is not
 * NOK. `undefined` when settled, issued after `asOf` or fully paid.
 */
function toOpenInvoice(invoice: Json, asOf: string): OpenInvoice | undefined {
  const sale = asObject(invoice.sale);
  if (sale.settled === true || invoice.settled === true) {
    return undefined;
  }
  const issueDate = asString(invoice.issueDate);
  const currency = asString(invoice.currency, 'NOK') || 'NOK';
  const inCurrency = currency === 'NOK' ? undefined : sale.outstandingBalanceInCurrency;
  const outstanding = Math.round(
    asNumber(inCurrency ?? sale.outstandingBalance ?? invoice.outstandingBalance ?? invoice.gross),
  );
  if (issueDate > asOf || outstanding <= 0) {
    return undefined;
  }
  return {
    id: asString(invoice.invoiceId),
    number: asString(invoice.invoiceNumber),
    customerName: asString(asObject(invoice.customer).name),
    issueDate,
    dueDate: asString(invoice.dueDate),
    amount: Math.round(asNumber(invoice.gross)),
    outstanding,
    currency,
  };
}

/** Fiken's purchase VAT types with a plain rate, as the domain writes the rate. */
const PURCHASE_VAT_RATES: Record<string, string> = {
  HIGH: '25',
  MEDIUM: '15',
  LOW: '12',
  RAW_FISH: '11.11',
  NONE: '0',
};

/** What the service's own purchases carry as identifier: its readable reference, or (older) the bare id. */
const OWN_REFERENCE = /^(P-[0-9A-Z]{5}-[0-9A-Z]{5}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The marker a supplier invoice booked by the service carries on its first line. */
const OWN_MARKER = /\[P-[0-9A-Z]{5}-[0-9A-Z]{5}\]$/;

function toPurchaseBooking(purchase: Json): HistoricalBooking | null {
  const identifier = typeof purchase.identifier === 'string' ? purchase.identifier : '';
  if (OWN_REFERENCE.test(identifier) || purchase.deleted === true) return null;
  const lines = Array.isArray(purchase.lines) ? asArray(purchase.lines).map(asObject) : [];
  if (OWN_MARKER.test(asString(lines[0]?.description ?? ''))) return null;
  const gross = (line: Json) => asNumber(line.netPrice) + asNumber(line.vat ?? 0);
  const [largest] = [...lines].sort((a, b) => gross(b) - gross(a));
  if (!largest) return null;
  const account = asString(largest.account);
  const vatRate = PURCHASE_VAT_RATES[asString(largest.vatType)];
  const amount = lines.reduce((sum, line) => sum + gross(line), 0);
  const supplier = purchase.supplier ? asObject(purchase.supplier).name : undefined;
  const merchant = typeof supplier === 'string' && supplier ? supplier : asString(largest.description ?? '');
  if (!isExpenseAccount(account) || vatRate === undefined || amount <= 0 || !merchant) return null;
  if (typeof purchase.currency === 'string' && purchase.currency !== 'NOK') return null;
  return {
    provider: 'fiken',
    bookingId: `purchase/${asString(purchase.purchaseId)}`,
    kind: 'purchase',
    date: asString(purchase.date),
    merchant,
    accountCode: account.split(':')[0],
    vatRate,
    amount: Math.round(amount),
  };
}
