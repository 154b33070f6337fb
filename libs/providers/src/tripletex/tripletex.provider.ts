import { Injectable } from '@nestjs/common';
import { FormData } from 'undici';
import {
  AccountBalance,
  AccountingProvider,
  BookingRef,
  Clock,
  ExpenseBooking,
  HistoricalBooking,
  HistoryPage,
  LedgerVoucher,
  OpenInvoice,
  BookingSupplier,
  Posting,
  PostingParty,
  ProviderCallOptions,
  ProviderConnection,
  ProviderContext,
  ProviderError,
  Receipt,
} from '@app/domain';
import { asTripletexConnection, type TripletexConnection } from './tripletex-connection';
import { callScopeOf, type CallScope } from '../http/provider-http';
import { ResiliencePolicy, resilienceOptions } from '../http/resilience';
import { TransportError } from '../http/transport-error';
import { attachOnce, bookThenAttach } from '../shared/book-then-attach';
import type { ReceiptTarget } from '../shared/receipt-format';
import { addDays, assertIsoDate, osloDate } from '../shared/dates';
import { isResultAccount } from '../shared/balances';
import { bookingText, referencedText } from '../shared/booking-text';
import { asArray, asNumber, asObject, asOptionalString, asString, Json, mapPage } from '../shared/json';
import { hundredthsToPercent, kronerToMinor, minorToKroner, percentToHundredths } from '../shared/money';
import { validateBooking } from '../shared/validate-booking';
import { decodeHistoryCursor, encodeHistoryCursor, isExpenseAccount, needsReceipt, vatRateOf } from '../shared/history';
import { TripletexClient } from './tripletex-client';
import { ResolvedTripletexConfig, TripletexConfig, resolveTripletexConfig } from './tripletex.config';
import { accountRulesOf, vatTypeForLine } from './tripletex-vat';
import { voucherTypeFor } from './tripletex-voucher-type';

const VOUCHER_PATH = '/ledger/voucher';
/** An account with what a posting on it must respect (AccountRules). */
const ACCOUNT_FIELDS =
  'id,number,name,type,vatType(id,number),vatLocked,legalVatTypes(id,number),ledgerType,requiresDepartment,requiresProject,isInactive';
/** A voucher's postings as the ledger holds them, for reading a booking back. */
const POSTING_FIELDS =
  'id,postings(row,description,amount,account(number),vatType(number),supplier(id,name,organizationNumber),employee(id,firstName,lastName),invoiceNumber,termOfPayment,systemGenerated)';

/** The file types Tripletex takes as a booking's attachment. */
const TRIPLETEX_RECEIPTS: ReceiptTarget = {
  provider: 'tripletex',
  // "Valid document formats are PDF, PNG, JPEG and TIFF" (LedgerVoucherAttachment_uploadAttachment).
  receiptTypes: ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff'],
};

/**
 * The AccountingProvider adapter for Tripletex API v2 (docs/providers.md: every call, the operation
 * of Tripletex's definition it conforms to, and the decisions).
 */
@Injectable()
export class TripletexProvider extends AccountingProvider {
  private readonly config: ResolvedTripletexConfig;
  private readonly client: TripletexClient;
  private readonly clock: Clock;

  constructor(config: TripletexConfig, clock: Clock) {
    super();
    this.config = resolveTripletexConfig(config);
    this.clock = clock;
    const policy = new ResiliencePolicy('tripletex', resilienceOptions(config.resilience));
    this.client = new TripletexClient(this.config, policy, this.clock, config.dispatcher);
  }

  async fetchContext(conn: ProviderConnection, options?: ProviderCallOptions): Promise<ProviderContext> {
    const c = asTripletexConnection(conn);
    const call = callScopeOf(options);
    const accounts = [];
    // Inactive accounts too, flagged: a proposal naming one is refused with the reason.
    for await (const account of this.client.list(c, '/ledger/account', { fields: ACCOUNT_FIELDS }, call)) {
      const vatTypeId = asOptionalString(asObject(account.vatType).id);
      accounts.push({
        code: asString(account.number),
        name: asString(account.name),
        ...(vatTypeId ? { vatTypeId } : {}),
        rules: accountRulesOf(account),
      });
    }
    const departments = [];
    for await (const department of this.client.list(c, '/department', { fields: 'id,name,departmentNumber' }, call)) {
      departments.push({
        id: asString(department.id),
        name: asString(department.name),
        number: asOptionalString(department.departmentNumber),
      });
    }
    const vatTypes = [];
    for await (const vatType of this.client.list(c, '/ledger/vatType', { fields: 'id,number,name,percentage' }, call)) {
      const rate = percentToHundredths(vatType.percentage) ?? 0;
      vatTypes.push({
        id: asString(vatType.id),
        code: asString(vatType.number),
        name: asString(vatType.name),
        ratePercent: hundredthsToPercent(rate),
        // Tripletex numbers its VAT types by the standard (SAF-T) codes.
        standardCode: asOptionalString(vatType.number) ?? null,
      });
    }
    const employees = [];
    for await (const employee of this.client.list(c, '/employee', { fields: 'id,firstName,lastName,email' }, call)) {
      employees.push({
        id: asString(employee.id),
        firstName: asString(employee.firstName),
        lastName: asString(employee.lastName),
        email: asOptionalString(employee.email),
      });
    }
    const voucherTypes = [];
    for await (const voucherType of this.client.list(c, '/ledger/voucherType', { fields: 'id,name' }, call)) {
      voucherTypes.push({ id: asString(voucherType.id), name: asString(voucherType.name) });
    }
    // Inactive suppliers stay findable by organisation number; a supplier invoice from one is refused
    // at submission (assertBookable) rather than booked on a supplier the company closed.
    const inactiveSuppliers = [];
    for await (const supplier of this.client.list(
      c,
      '/supplier',
      { isInactive: true, fields: 'id,name,organizationNumber,isInactive' },
      call,
    )) {
      const organizationNumber = asOptionalString(supplier.organizationNumber);
      if (supplier.isInactive !== true || !organizationNumber) continue;
      inactiveSuppliers.push({ id: asString(supplier.id), name: asString(supplier.name), organizationNumber });
    }
    return { accounts, departments, vatTypes, employees, voucherTypes, inactiveSuppliers };
  }

  async balances(conn: ProviderConnection, date: string, options?: ProviderCallOptions): Promise<AccountBalance[]> {
    assertIsoDate(date, 'date');
    const c = asTripletexConnection(conn);
    const query = {
      dateFrom: `${date.slice(0, 4)}-01-01`,
      dateTo: addDays(date, 1),
      fields: 'account(id,number,name),balanceIn,balanceChange,balanceOut',
    };
    const balances: AccountBalance[] = [];
    for await (const line of this.client.list(c, '/balanceSheet', query, callScopeOf(options))) {
      const account = asObject(line.account);
      const code = asString(account.number);
      // Result accounts: the year's movement up to the date (balanceChange since 1 January), whether
      // or not last year was closed into equity; balance-sheet accounts: the closing balance.
      balances.push({
        code,
        name: asString(account.name),
        balance: kronerToMinor(isResultAccount(code) ? line.balanceChange : line.balanceOut),
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
    const query = {
      dateFrom: from,
      dateTo: addDays(last, 1),
      // Only what the checks read: the postings' rows, accounts and gross amounts (what kind of voucher
      // it is), and whether a document is attached (attachment, document or EDI document).
      fields:
        'id,number,date,description,attachment(id),document(id),ediDocument(id),postings(row,amountGross,account(number))',
    };
    for await (const page of this.client.pages(
      asTripletexConnection(conn),
      VOUCHER_PATH,
      query,
      callScopeOf(options),
    )) {
      yield mapPage(page, toLedgerVoucher);
    }
  }

  async *openInvoicePages(
    conn: ProviderConnection,
    asOf: string,
    options?: ProviderCallOptions,
  ): AsyncGenerator<OpenInvoice[]> {
    assertIsoDate(asOf, 'asOf');
    const query = {
      invoiceDateFrom: addDays(asOf, -this.config.invoiceHistoryDays),
      invoiceDateTo: addDays(asOf, 1),
      // `currency` alone would come back as {id, url}: its code has to be asked for by name.
      fields:
        'id,invoiceNumber,invoiceDate,invoiceDueDate,customer(id,name),amountCurrency,amountCurrencyOutstanding,currency(code)',
    };
    for await (const page of this.client.pages(asTripletexConnection(conn), '/invoice', query, callScopeOf(options))) {
      yield mapPage(page, toOpenInvoice);
    }
  }

  /**
   * Phase 0: supplier invoices (GET /supplierInvoice), each booked to the expense account of its
   * voucher's largest expense posting. Phase 1: vouchers (GET /ledger/voucher) with one expense
   * posting — card and bank purchases — named by their supplier, else by their text; vouchers with
   * a posting on the supplier account (2400) are invoices, read in phase 0, and vouchers with an
   * external number are the service's own bookings. Credit notes are left out.
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
    const start = decodeHistoryCursor('tripletex', cursor);
    const c = asTripletexConnection(conn);
    const call = callScopeOf(options);
    const phases = [
      {
        path: '/supplierInvoice',
        query: {
          invoiceDateFrom: from,
          invoiceDateTo: addDays(to, 1),
          fields:
            'id,invoiceDate,isCreditNote,amount,supplier(name),voucher(id,postings(row,account(number),vatType(percentage),amountGross))',
        },
        map: toInvoiceBooking,
      },
      {
        path: VOUCHER_PATH,
        query: {
          dateFrom: from,
          dateTo: addDays(to, 1),
          fields:
            'id,date,description,externalVoucherNumber,postings(row,account(number),vatType(percentage),supplier(name),amountGross)',
        },
        map: toVoucherBooking,
      },
    ];
    for (let phase = start.phase; phase < phases.length; phase++) {
      const { path, query, map } = phases[phase];
      let position = phase === start.phase ? start.position : 0;
      const pages = this.client.pages(c, path, query, call, position);
      for await (const page of pages) {
        position += page.length;
        const bookings = page.flatMap((element) => {
          const booking = map(asObject(element));
          return booking ? [booking] : [];
        });
        yield { bookings, cursor: encodeHistoryCursor({ phase, position }), total: null };
      }
    }
    yield { bookings: [], cursor: null, total: null };
  }

  async bookExpense(
    conn: ProviderConnection,
    booking: ExpenseBooking,
    options?: ProviderCallOptions,
  ): Promise<BookingRef> {
    const c = asTripletexConnection(conn);
    const call = callScopeOf(options);
    validateBooking('tripletex', booking);
    const foreign = booking.currency !== 'NOK';
    if (foreign && (booking.amountNok === null || !Number.isSafeInteger(booking.amountNok) || booking.amountNok <= 0)) {
      throw new ProviderError(
        'tripletex',
        'rejected',
        `a voucher in ${booking.currency} needs the NOK amount paid; Tripletex books in NOK`,
      );
    }
    return bookThenAttach(TRIPLETEX_RECEIPTS, booking, {
      prepare: () => this.voucherFor(c, booking, call),
      create: async (voucher) => {
        const response = await this.client.request(
          c,
          {
            method: 'POST',
            path: VOUCHER_PATH,
            query: { sendToLedger: true },
            json: voucher,
            retryMode: 'not-processed-only',
          },
          call,
        );
        return asString(asObject(asObject(response.body).value).id);
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
    const c = asTripletexConnection(conn);
    const call = callScopeOf(options);
    const voucherPath = `${VOUCHER_PATH}/${encodeURIComponent(bookingId)}`;
    await attachOnce(TRIPLETEX_RECEIPTS, receipt, {
      upload: async (file) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.filename);
        await this.client.request(
          c,
          { method: 'POST', path: `${voucherPath}/attachment`, form, retryMode: 'not-processed-only' },
          call,
        );
      },
      hasAttachment: async () => {
        const voucher = await this.client.getValue(c, voucherPath, { fields: 'id,attachment' }, call);
        return hasDocument(voucher.attachment);
      },
      settleMs: this.config.settleBeforeLookupMs,
    });
  }

  async bookedPostings(conn: ProviderConnection, bookingId: string, options?: ProviderCallOptions): Promise<Posting[]> {
    const c = asTripletexConnection(conn);
    const voucher = await this.client.getValue(
      c,
      `${VOUCHER_PATH}/${encodeURIComponent(bookingId)}`,
      { fields: POSTING_FIELDS },
      callScopeOf(options),
    );
    const postings = Array.isArray(voucher.postings) ? asArray(voucher.postings).map(asObject) : [];
    return postings.map(toPosting);
  }

  async findBookingByReference(
    conn: ProviderConnection,
    reference: string,
    dateHint: string,
    options?: ProviderCallOptions,
  ): Promise<BookingRef | null> {
    assertIsoDate(dateHint, 'dateHint');
    const c = asTripletexConnection(conn);
    const call = callScopeOf(options);
    const fields = 'id,date,description,externalVoucherNumber,attachment';
    try {
      for await (const voucher of this.client.list(
        c,
        `${VOUCHER_PATH}/>externalVoucherNumber`,
        { externalVoucherNumber: reference, fields },
        call,
      )) {
        if (asString(voucher.externalVoucherNumber) === reference) {
          return toBookingRef(voucher);
        }
      }
    } catch (error) {
      // An endpoint the installation does not offer answers 404: fall back to the date search.
      if (!(error instanceof TransportError && error.status === 404)) {
        throw error;
      }
    }
    const days = this.config.referenceSearchDays;
    const query = { dateFrom: addDays(dateHint, -days), dateTo: addDays(dateHint, days + 1), fields };
    const marker = `(ref ${reference})`;
    for await (const voucher of this.client.list(c, VOUCHER_PATH, query, call)) {
      if (asString(voucher.externalVoucherNumber) === reference || asString(voucher.description).includes(marker)) {
        return toBookingRef(voucher);
      }
    }
    return null;
  }

  /**
   * The voucher to post: one posting per line on its account with the VAT type numbered by the line's
   * VAT code, and one credit posting for the total on the payment account (an expense) or accounts
   * payable with the supplier, invoice number and due date (a supplier invoice); the employee on it
   * where the account's ledger is the employees', the department on the lines when there is one.
   */
  private async voucherFor(c: TripletexConnection, booking: ExpenseBooking, call: CallScope): Promise<Json> {
    const foreign = booking.currency !== 'NOK';
    const totalNok = foreign ? (booking.amountNok as number) : booking.grossAmount;
    checkLines(booking, totalNok);
    const creditCode = booking.paymentAccount.split(':')[0];
    const accounts = await this.accountsByNumber(c, [...booking.lines.map((l) => l.accountCode), creditCode], call);
    const account = (code: string): Json => accounts.get(code) as Json;
    const vatTypes = [];
    for await (const vatType of this.client.list(c, '/ledger/vatType', { fields: 'id,number,name,percentage' }, call)) {
      vatTypes.push(vatType);
    }
    const lines = [];
    for (const line of booking.lines) {
      lines.push({ line, account: account(line.accountCode), vatType: vatTypeForLine(vatTypes, line) });
    }
    const creditAccount = account(creditCode);
    const currency = foreign ? { currency: { id: await this.currencyId(c, booking.currency, call) } } : {};
    const department =
      booking.departmentId === null ? {} : { department: { id: tripletexId(booking.departmentId, 'department') } };
    const text = bookingText(booking);
    const postings: Json[] = lines.map(({ line, account: lineAccount, vatType }, i) => ({
      row: i + 1,
      date: booking.date,
      description: line.description ? `${booking.merchant}: ${line.description}` : text,
      account: { id: lineAccount.id },
      amountGross: minorToKroner(line.grossAmountNok),
      amountGrossCurrency: minorToKroner(line.grossAmount),
      ...currency,
      vatType: { id: vatType.id },
      ...department,
    }));
    postings.push({
      row: lines.length + 1,
      date: booking.date,
      description: booking.kind === 'supplier_invoice' ? supplierInvoiceText(booking) : text,
      account: { id: creditAccount.id },
      amountGross: -minorToKroner(totalNok),
      amountGrossCurrency: -minorToKroner(booking.grossAmount),
      ...currency,
      ...(creditAccount.requiresDepartment === true ? department : {}),
      ...(await this.partyOf(c, booking, creditAccount, call)),
    });
    const voucherType = voucherTypeFor(booking);
    return {
      date: booking.date,
      description: referencedText(text, booking.reference),
      ...(voucherType ? { voucherType: { id: tripletexId(voucherType.id, 'voucher type') } } : {}),
      externalVoucherNumber: booking.reference,
      ...(booking.kind === 'supplier_invoice' && booking.invoiceNumber
        ? { vendorInvoiceNumber: booking.invoiceNumber }
        : {}),
      postings,
    };
  }

  /**
   * What the credit posting names: a supplier invoice's supplier (found by organisation number or
   * created), invoice number and due date (`termOfPayment`); the employee an out-of-pocket expense
   * is owed to where the account's ledger type is EMPLOYEE.
   */
  private async partyOf(
    c: TripletexConnection,
    booking: ExpenseBooking,
    creditAccount: Json,
    call: CallScope,
  ): Promise<Json> {
    if (booking.kind === 'supplier_invoice') {
      if (!booking.supplier || !booking.invoiceNumber || !booking.dueDate) {
        throw new ProviderError(
          'tripletex',
          'rejected',
          'a supplier invoice needs its supplier, invoice number and due date',
        );
      }
      assertIsoDate(booking.dueDate, 'dueDate');
      return {
        supplier: { id: await this.supplierId(c, booking.supplier, call) },
        invoiceNumber: booking.invoiceNumber,
        termOfPayment: booking.dueDate,
      };
    }
    if (asString(creditAccount.ledgerType) === 'EMPLOYEE') {
      const employeeId = booking.employee?.providerId;
      if (!employeeId) {
        throw new ProviderError(
          'tripletex',
          'rejected',
          `account ${asString(creditAccount.number)} is kept per employee: the expense needs the employee mapped to a Tripletex employee`,
        );
      }
      return { employee: { id: tripletexId(employeeId, 'employee') } };
    }
    return {};
  }

  /**
   * The supplier with the organisation number (`GET /supplier?organizationNumber=`), created when
   * there is none. An inactive one (marked after the context was fetched) is refused for good rather
   * than booked on or created again beside it: the accountant reactivates it in Tripletex.
   */
  private async supplierId(c: TripletexConnection, supplier: BookingSupplier, call: CallScope): Promise<unknown> {
    for await (const found of this.client.list(
      c,
      '/supplier',
      { organizationNumber: supplier.organizationNumber, fields: 'id,name,organizationNumber,isInactive' },
      call,
    )) {
      if (asString(found.organizationNumber) !== supplier.organizationNumber) continue;
      if (found.isInactive === true) {
        throw new ProviderError(
          'tripletex',
          'rejected',
          `supplier ${supplier.organizationNumber} (${asString(found.name)}) is inactive in Tripletex: reactivate the supplier`,
        );
      }
      return found.id;
    }
    const response = await this.client.request(
      c,
      {
        method: 'POST',
        path: '/supplier',
        json: {
          name: supplier.name,
          organizationNumber: supplier.organizationNumber,
          ...(supplier.bankAccount ? { bankAccountPresentation: [{ bban: supplier.bankAccount }] } : {}),
        },
        retryMode: 'not-processed-only',
      },
      call,
    );
    return asObject(asObject(response.body).value).id;
  }

  /** Tripletex's id of a currency (`/currency?code=`), for a posting in it. */
  private async currencyId(conn: TripletexConnection, code: string, call: CallScope): Promise<unknown> {
    for await (const currency of this.client.list(conn, '/currency', { code, fields: 'id,code' }, call)) {
      if (asString(currency.code) === code) return currency.id;
    }
    throw new ProviderError('tripletex', 'rejected', `Tripletex knows no currency ${code}`);
  }

  /**
   * The accounts a voucher posts to, as the chart has them now (their VAT type, ledger type and
   * department rule are checked at booking time), by number: one request for all of them
   * (`number` takes a comma-separated list), where one per account spent the company's request
   * window twice as fast.
   */
  private async accountsByNumber(
    conn: TripletexConnection,
    codes: readonly string[],
    call: CallScope,
  ): Promise<Map<string, Json>> {
    const wanted = [...new Set(codes)];
    const found = new Map<string, Json>();
    for await (const account of this.client.list(
      conn,
      '/ledger/account',
      { number: wanted.join(','), fields: 'id,number,name,vatType,ledgerType,requiresDepartment' },
      call,
    )) {
      const number = asString(account.number);
      if (wanted.includes(number)) found.set(number, account);
    }
    const missing = wanted.find((code) => !found.has(code));
    if (missing !== undefined) {
      throw new ProviderError(
        'tripletex',
        'unknown_account',
        `Tripletex has no account ${missing} in this company's chart`,
      );
    }
    return found;
  }
}

/** Our lines must share the total exactly: the voucher balances to the øre. */
function checkLines(booking: ExpenseBooking, totalNok: number): void {
  const valid = booking.lines.every(
    (line) =>
      Number.isSafeInteger(line.grossAmountNok) &&
      line.grossAmountNok > 0 &&
      Number.isSafeInteger(line.grossAmount) &&
      line.grossAmount > 0,
  );
  const sumNok = booking.lines.reduce((sum, line) => sum + line.grossAmountNok, 0);
  const sum = booking.lines.reduce((sum, line) => sum + line.grossAmount, 0);
  if (booking.lines.length === 0 || !valid || sumNok !== totalNok || sum !== booking.grossAmount) {
    throw new ProviderError('tripletex', 'rejected', "the booking's lines do not add up to its amount");
  }
}

/** A Tripletex id (an integer) from the string the service keeps it as. */
function tripletexId(id: string, what: string): number {
  if (!/^\d{1,15}$/.test(id)) {
    throw new ProviderError('tripletex', 'rejected', `"${id}" is not a Tripletex ${what} id`);
  }
  return Number(id);
}

/** The accounts-payable posting's text: the supplier, its invoice number and the KID to pay with. */
function supplierInvoiceText(booking: ExpenseBooking): string {
  const kid = booking.supplier?.kid ? `, KID ${booking.supplier.kid}` : '';
  return `${booking.supplier?.name ?? booking.merchant}: faktura ${booking.invoiceNumber ?? ''}${kid}`;
}

/** A posting read back: net amount in øre, the VAT number, the party, a supplier invoice's number and due date. */
function toPosting(posting: Json): Posting {
  const supplier = posting.supplier ? asObject(posting.supplier) : null;
  const employee = posting.employee ? asObject(posting.employee) : null;
  const party: PostingParty | null =
    supplier && supplier.id !== undefined && supplier.id !== null
      ? {
          kind: 'supplier',
          name: asString(supplier.name),
          organizationNumber: asOptionalString(supplier.organizationNumber) ?? null,
          providerId: asString(supplier.id),
        }
      : employee && employee.id !== undefined && employee.id !== null
        ? {
            kind: 'employee',
            name: `${asString(employee.firstName)} ${asString(employee.lastName)}`.trim(),
            providerId: asString(employee.id),
          }
        : null;
  const vatCode = posting.vatType ? asOptionalString(asObject(posting.vatType).number) : undefined;
  const description = asOptionalString(posting.description) ?? null;
  const invoiceNumber = asOptionalString(posting.invoiceNumber) ?? null;
  // The definition has no field a KID can be written to on a posting: it travels in the text.
  const kid = invoiceNumber && description ? (/\bKID (\d{2,25})\b/.exec(description)?.[1] ?? null) : null;
  return {
    accountCode: String(asObject(posting.account).number ?? ''),
    amount: kronerToMinor(posting.amount),
    vatCode: vatCode ?? null,
    party,
    description,
    generated: asNumber(posting.row) === 0 || posting.systemGenerated === true,
    ...(invoiceNumber ? { invoiceNumber, dueDate: asOptionalString(posting.termOfPayment) ?? null, kid } : {}),
  };
}

function hasDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null && asObject(value).id !== undefined && asObject(value).id !== null;
}

function toBookingRef(voucher: Json): BookingRef {
  return { bookingId: asString(voucher.id), hasAttachment: hasDocument(voucher.attachment) };
}

/**
 * An invoice as an `OpenInvoice`, in the invoice's own currency (`amountCurrency`,
 * `amountCurrencyOutstanding`, `currency(code)`); `undefined` when nothing is outstanding.
 */
function toOpenInvoice(invoice: Json): OpenInvoice | undefined {
  const outstanding = kronerToMinor(invoice.amountCurrencyOutstanding);
  if (outstanding <= 0) {
    return undefined;
  }
  return {
    id: asString(invoice.id),
    number: asString(invoice.invoiceNumber),
    customerName: asString(asObject(invoice.customer).name),
    issueDate: asString(invoice.invoiceDate),
    dueDate: asString(invoice.invoiceDueDate),
    amount: kronerToMinor(invoice.amountCurrency),
    outstanding,
    currency: asString(asObject(invoice.currency).code) || 'NOK',
  };
}

/**
 * A voucher as a `LedgerVoucher`. Its amount is the gross of what was entered: the positive
 * `amountGross` of every posting but the ones Tripletex generates itself (row 0: the VAT postings),
 * which would count the VAT twice.
 */
interface ExpensePosting {
  readonly account: string;
  readonly vatRate: string;
  readonly gross: number;
}

/** The expense postings a voucher's user entered (row 0 holds the VAT Tripletex generated). */
function expensePostings(voucher: Json): ExpensePosting[] {
  const postings = Array.isArray(voucher.postings) ? asArray(voucher.postings) : [];
  return postings.flatMap((p) => {
    const posting = asObject(p);
    if (asNumber(posting.row) === 0 || !posting.account) return [];
    const account = String(asObject(posting.account).number ?? '');
    const gross = kronerToMinor(asNumber(posting.amountGross));
    if (!isExpenseAccount(account) || gross <= 0) return [];
    const vatType = posting.vatType ? asObject(posting.vatType) : null;
    const percentage = vatType && typeof vatType.percentage === 'number' ? vatType.percentage : 0;
    return [{ account, vatRate: vatRateOf(percentage), gross }];
  });
}

function toInvoiceBooking(invoice: Json): HistoricalBooking | null {
  if (invoice.isCreditNote === true || !invoice.supplier || !invoice.voucher) return null;
  const [largest] = expensePostings(asObject(invoice.voucher)).sort((a, b) => b.gross - a.gross);
  const merchant = asOptionalString(asObject(invoice.supplier).name);
  const amount = kronerToMinor(asNumber(invoice.amount));
  if (!largest || !merchant || amount <= 0) return null;
  return {
    provider: 'tripletex',
    bookingId: `supplierInvoice/${asString(invoice.id)}`,
    kind: 'supplier_invoice',
    date: asString(invoice.invoiceDate),
    merchant,
    accountCode: largest.account,
    vatRate: largest.vatRate,
    amount,
  };
}

function toVoucherBooking(voucher: Json): HistoricalBooking | null {
  if (asOptionalString(voucher.externalVoucherNumber)) return null;
  const postings = Array.isArray(voucher.postings) ? asArray(voucher.postings).map(asObject) : [];
  const onSupplierLedger = postings.some(
    (posting) => posting.account && String(asObject(posting.account).number) === '2400',
  );
  const expenses = expensePostings(voucher);
  if (onSupplierLedger || expenses.length !== 1) return null;
  const supplier = postings
    .map((posting) => (posting.supplier ? asOptionalString(asObject(posting.supplier).name) : undefined))
    .find(Boolean);
  const merchant = supplier ?? asOptionalString(voucher.description);
  if (!merchant) return null;
  return {
    provider: 'tripletex',
    bookingId: `voucher/${asString(voucher.id)}`,
    kind: 'voucher',
    date: asString(voucher.date),
    merchant,
    accountCode: expenses[0].account,
    vatRate: expenses[0].vatRate,
    amount: expenses[0].gross,
  };
}

function toLedgerVoucher(voucher: Json): LedgerVoucher {
  const postings = voucher.postings;
  let amount: number | undefined;
  if (Array.isArray(postings) && postings.length > 0) {
    amount = asArray(postings).reduce<number>((sum, p) => {
      const posting = asObject(p);
      if (asNumber(posting.row) === 0) return sum;
      const gross = kronerToMinor(asNumber(posting.amountGross));
      return gross > 0 ? sum + gross : sum;
    }, 0);
  }
  const entered = Array.isArray(postings)
    ? asArray(postings)
        .map(asObject)
        .filter((posting) => asNumber(posting.row) !== 0 && posting.account)
        .map((posting) => ({
          account: String(asObject(posting.account).number ?? ''),
          amount: kronerToMinor(asNumber(posting.amountGross)),
        }))
    : [];
  return {
    id: asString(voucher.id),
    number: asString(voucher.number),
    date: asString(voucher.date),
    description: asString(voucher.description),
    ...(amount === undefined ? {} : { amount }),
    // Tripletex keeps a voucher's paper in three places: an uploaded attachment, the document it
    // was made from (a scanned or e-mailed receipt), and an EHF/EDI invoice.
    hasAttachment: hasDocument(voucher.attachment) || hasDocument(voucher.document) || hasDocument(voucher.ediDocument),
    ...(Array.isArray(postings) ? { needsReceipt: needsReceipt(entered) } : {}),
  };
}
