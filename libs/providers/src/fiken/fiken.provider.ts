import { Injectable } from '@nestjs/common';
import {
  AccountBalance,
  AccountingProvider,
  ApiCallRecorder,
  BookingRef,
  Clock,
  ExpenseBooking,
  FikenConnection,
  IGNORE_API_CALLS,
  LedgerVoucher,
  OpenInvoice,
  ProviderCallOptions,
  ProviderConnection,
  ProviderContext,
  ProviderError,
  ProviderTokenStore,
  Receipt,
} from '@app/domain';
import { ProviderHttp, retryAfterHeaderMs } from '../http/provider-http';
import { ResiliencePolicy, resilienceOptions } from '../http/resilience';
import { TransportError } from '../http/transport-error';
import { attachAfterBooking, createOnce } from '../shared/create-once';
import { addDays, assertIsoDate, osloDate } from '../shared/dates';
import { asArray, asNumber, asObject, asString, Json, mapPage } from '../shared/json';
import { splitGross } from '../shared/money';
import { validateBooking } from '../shared/validate-booking';
import { FikenClient, idFromLocation } from './fiken-client';
import { FikenConfig, ResolvedFikenConfig, resolveFikenConfig } from './fiken.config';
import { describeFikenError } from './fiken-errors';
import { FikenTokens } from './fiken-tokens';
import { fikenVatTypeFor, fikenVatTypes } from './fiken-vat';

/** The AccountingProvider adapter for Fiken API v2 (providers.md, "Provider B"). Amounts are øre. */
@Injectable()
export class FikenProvider extends AccountingProvider {
  private readonly config: ResolvedFikenConfig;
  private readonly client: FikenClient;
  private readonly clock: Clock;

  constructor(config: FikenConfig, tokenStore: ProviderTokenStore, clock: Clock) {
    super();
    this.config = resolveFikenConfig(config);
    this.clock = clock;
    const http = new ProviderHttp({
      provider: 'fiken',
      policy: new ResiliencePolicy('fiken', resilienceOptions(config.resilience)),
      describeError: describeFikenError,
      rateLimitWaitMs: (response) => retryAfterHeaderMs(response.headers),
      fetch: config.fetch,
    });
    const tokens = new FikenTokens(tokenStore, http, this.config, this.clock);
    this.client = new FikenClient(http, tokens, this.config);
  }

  async fetchContext(conn: ProviderConnection, options?: ProviderCallOptions): Promise<ProviderContext> {
    const response = await this.client.request(fiken(conn), { method: 'GET', path: '/accounts' }, recorderOf(options));
    const accounts = asArray(response.body).map((item) => {
      const account = asObject(item);
      return { code: asString(account.code), name: asString(account.name) };
    });
    // Fiken has no departments, VAT type or employee endpoints: its fixed purchase VAT types stand in.
    return { accounts, departments: [], vatTypes: fikenVatTypes(), employees: [] };
  }

  async balances(conn: ProviderConnection, date: string, options?: ProviderCallOptions): Promise<AccountBalance[]> {
    assertIsoDate(date, 'date');
    const balances: AccountBalance[] = [];
    for await (const line of this.client.list(fiken(conn), '/accountBalances', { date }, recorderOf(options))) {
      balances.push({
        code: asString(line.code),
        name: asString(line.name),
        balance: Math.round(asNumber(line.balance)),
      });
    }
    return balances;
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
    for await (const page of this.client.pages(
      fiken(conn),
      '/journalEntries',
      { dateGe: from, dateLe: last },
      recorderOf(options),
    )) {
      yield mapPage(page, (entry) => toLedgerVoucher(entry, from, last));
    }
  }

  async *openInvoicePages(
    conn: ProviderConnection,
    asOf: string,
    options?: ProviderCallOptions,
  ): AsyncGenerator<OpenInvoice[]> {
    assertIsoDate(asOf, 'asOf');
    for await (const page of this.client.pages(
      fiken(conn),
      '/invoices',
      { settled: false, issueDateLe: asOf },
      recorderOf(options),
    )) {
      yield mapPage(page, (invoice) => toOpenInvoice(invoice, asOf));
    }
  }

  async bookExpense(
    conn: ProviderConnection,
    booking: ExpenseBooking,
    options?: ProviderCallOptions,
  ): Promise<BookingRef> {
    const c = fiken(conn);
    const recorder = recorderOf(options);
    const rate = validateBooking('fiken', booking);
    const vatType = fikenVatTypeFor(rate);
    if (!vatType) {
      throw new ProviderError(
        'fiken',
        'unknown_vat_rate',
        `Fiken has no purchase VAT type with rate ${booking.vatRate} %`,
      );
    }
    const { net, vat } = splitGross(booking.grossAmount, rate);
    const paymentAccount = await this.paymentAccount(c, booking.paymentAccount, recorder);
    const purchase = {
      identifier: booking.reference,
      date: booking.date,
      kind: 'cash_purchase',
      paid: true,
      paymentDate: booking.date,
      paymentAccount,
      currency: booking.currency,
      lines: [
        {
          description: `${booking.merchant}: ${booking.description}`,
          netPrice: net,
          vat,
          account: booking.accountCode,
          vatType,
        },
      ],
    };
    const created = await createOnce(
      async () => {
        const response = await this.client.request(
          c,
          { method: 'POST', path: '/purchases', json: purchase, retryMode: 'not-processed-only' },
          recorder,
        );
        const bookingId = idFromLocation(response);
        if (!bookingId) {
          throw new TransportError('fiken', 'rejected', 'Fiken created the purchase without a Location header', {
            status: response.status,
            outcomeUnknown: false,
          });
        }
        return { bookingId, hasAttachment: false };
      },
      () => this.findBookingByReference(c, booking.reference, booking.date, options),
      this.config.settleBeforeLookupMs,
    );
    return attachAfterBooking(created, booking.receipt, (bookingId, receipt) =>
      this.attachReceipt(c, bookingId, receipt, options),
    );
  }

  async attachReceipt(
    conn: ProviderConnection,
    bookingId: string,
    receipt: Receipt,
    options?: ProviderCallOptions,
  ): Promise<void> {
    const c = fiken(conn);
    const recorder = recorderOf(options);
    const purchasePath = `/purchases/${encodeURIComponent(bookingId)}`;
    await createOnce(
      async () => {
        const form = new FormData();
        form.append('filename', receipt.filename);
        form.append('file', new Blob([new Uint8Array(receipt.bytes)], { type: receipt.contentType }), receipt.filename);
        await this.client.request(
          c,
          {
            method: 'POST',
            path: `${purchasePath}/attachments`,
            query: { attachToPayment: true },
            form,
            retryMode: 'not-processed-only',
          },
          recorder,
        );
        return true;
      },
      async () => {
        const response = await this.client.request(c, { method: 'GET', path: purchasePath }, recorder);
        return attachmentsOf(asObject(response.body)).length > 0 ? true : null;
      },
      this.config.settleBeforeLookupMs,
    );
  }

  async findBookingByReference(
    conn: ProviderConnection,
    reference: string,
    dateHint: string,
    options?: ProviderCallOptions,
  ): Promise<BookingRef | null> {
    assertIsoDate(dateHint, 'dateHint');
    const days = this.config.referenceSearchDays;
    const query = { dateGe: addDays(dateHint, -days), dateLe: addDays(dateHint, days), sortBy: 'createdDate desc' };
    for await (const purchase of this.client.list(fiken(conn), '/purchases', query, recorderOf(options))) {
      if (asString(purchase.identifier) === reference) {
        return { bookingId: asString(purchase.purchaseId), hasAttachment: attachmentsOf(purchase).length > 0 };
      }
    }
    return null;
  }

  /**
   * Fiken pays from a bank account's sub-ledger (`"1920:10001"`). A configured plain account number
   * is resolved through the chart (`/accounts` lists the sub-ledger accounts); the first sub-ledger
   * is assumed when the chart lists none.
   */
  private async paymentAccount(conn: FikenConnection, configured: string, recorder: ApiCallRecorder): Promise<string> {
    if (configured.includes(':')) {
      return configured;
    }
    const response = await this.client.request(
      conn,
      { method: 'GET', path: '/accounts', query: { fromAccount: configured, toAccount: configured } },
      recorder,
    );
    const subLedger = asArray(response.body)
      .map((item) => asString(asObject(item).code))
      .find((code) => code.startsWith(`${configured}:`));
    return subLedger ?? `${configured}:10001`;
  }
}

function fiken(conn: ProviderConnection): FikenConnection {
  if (conn.provider !== 'fiken') {
    throw new Error(`FikenProvider was given a ${conn.provider} connection`);
  }
  return conn;
}

/** A purchase's attachments: `purchaseAttachments` in API v2 (`attachments` in older answers). */
function attachmentsOf(purchase: Json): unknown[] {
  return asArray(purchase.purchaseAttachments ?? purchase.attachments);
}

function recorderOf(options: ProviderCallOptions | undefined): ApiCallRecorder {
  return options?.recorder ?? IGNORE_API_CALLS;
}

/** The debit side of a journal entry, øre: the larger of the positive and the negative line totals. */
function debitTotal(lines: unknown[]): number {
  const amounts = lines.map((line) => Math.round(asNumber(asObject(line).amount)));
  const debit = amounts.filter((a) => a > 0).reduce((sum, a) => sum + a, 0);
  const credit = amounts.filter((a) => a < 0).reduce((sum, a) => sum - a, 0);
  return credit === 0 ? debit : Math.max(debit, credit);
}

/** A journal entry as a `LedgerVoucher`; `undefined` when dated outside `from`–`to`. */
function toLedgerVoucher(entry: Json, from: string, to: string): LedgerVoucher | undefined {
  const date = asString(entry.date);
  if (date < from || date > to) {
    return undefined;
  }
  return {
    id: asString(entry.journalEntryId),
    number: asString(entry.journalEntryNumber),
    date,
    description: asString(entry.description),
    amount: debitTotal(asArray(entry.lines)),
    hasAttachment: asArray(entry.attachments).length > 0,
  };
}

/** An invoice as an `OpenInvoice`; `undefined` when settled, issued after `asOf` or fully paid. */
function toOpenInvoice(invoice: Json, asOf: string): OpenInvoice | undefined {
  const sale = asObject(invoice.sale);
  if (sale.settled === true || invoice.settled === true) {
    return undefined;
  }
  const issueDate = asString(invoice.issueDate);
  const outstanding = Math.round(asNumber(sale.outstandingBalance ?? invoice.outstandingBalance ?? invoice.gross));
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
    currency: asString(invoice.currency, 'NOK') || 'NOK',
  };
}
