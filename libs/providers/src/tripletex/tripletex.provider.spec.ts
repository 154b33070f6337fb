import sharp from 'sharp';
import {
  createSandbox,
  inspectSandboxExchanges,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
  type RunningSandbox,
  type Sandbox,
  type SandboxExchange,
} from '@app/sandbox';
import { ApiCallLog, Clock, ExpenseBooking, ProviderError } from '@app/domain';
import type { TripletexConnection } from './tripletex-connection';
import { aBooking, checkProviderContract, receiptPdf } from '@app/testing';
import { addDays } from '../shared/dates';
import { TripletexProvider } from './tripletex.provider';
import { TripletexConfig } from './tripletex.config';

const TODAY = '2026-03-16';

class ManualClock extends Clock {
  private current = Date.parse(`${TODAY}T10:00:00Z`);

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(iso: string): void {
    this.current = Date.parse(iso);
  }
}

const FAST = { timeoutMs: 400, retries: 2, initialBackoffMs: 5, maxBackoffMs: 20, breakerThreshold: 1_000 };
const PDF = new Uint8Array(receiptPdf());

describe('TripletexProvider against the Tripletex sandbox', () => {
  checkProviderContract();

  let clock: ManualClock;
  let sandbox: Sandbox;
  let running: RunningSandbox;
  let conn: TripletexConnection;

  beforeAll(async () => {
    clock = new ManualClock();
    sandbox = createSandbox({
      seed: 11,
      ledgerEndDate: TODAY,
      now: () => clock.now(),
      companies: 2,
      entriesPerCompany: 240,
      invoicesPerCompany: 60,
    });
    running = await sandbox.start(0, '127.0.0.1');
  });

  afterAll(async () => {
    await running.close();
  });

  beforeEach(() => {
    sandbox.control.reset();
    clock.set(`${TODAY}T10:00:00Z`);
    conn = connection(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
  });

  function connection(employeeToken: string, companyId = 'demo', version = 'connected-1'): TripletexConnection {
    return {
      provider: 'tripletex',
      companyId,
      baseUrl: running.tripletexApi,
      credentials: { version, employeeToken: async () => employeeToken },
    };
  }

  function provider(overrides: Partial<TripletexConfig> = {}): TripletexProvider {
    return new TripletexProvider(
      {
        consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
        settleBeforeLookupMs: 10,
        ...overrides,
        resilience: { ...FAST, ...overrides.resilience },
      },
      clock,
    );
  }

  const sessionCreates = () => sandbox.control.calls({ provider: 'tripletex', path: '/token/session/' }).length;

  /** The exchanges the sandbox answers while `work` runs. */
  async function exchangesDuring(work: () => Promise<unknown>): Promise<SandboxExchange[]> {
    const seen: SandboxExchange[] = [];
    const stop = inspectSandboxExchanges((exchange) => seen.push(exchange));
    try {
      await work();
    } finally {
      stop();
    }
    return seen;
  }

  const image = (format: 'webp' | 'gif' | 'tiff' | 'png') =>
    sharp({ create: { width: 8, height: 6, channels: 3, background: '#c33' } })
      .toFormat(format)
      .toBuffer()
      .then((bytes) => new Uint8Array(bytes));

  function booking(overrides: Partial<ExpenseBooking> = {}): ExpenseBooking {
    return aBooking({
      reference: '0190f1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b',
      date: TODAY,
      description: 'Kontorrekvisita',
      merchant: 'Clas Ohlson',
      accountCode: '6540',
      vatRate: '25',
      grossAmount: 13_500,
      currency: 'NOK',
      amountNok: null,
      paymentAccount: '1920',
      ...overrides,
    });
  }

  describe('reading', () => {
    it("fetches the company's context: accounts, departments, VAT types with rates, employees, voucher types, inactive suppliers", async () => {
      const log = new ApiCallLog();
      const context = await provider().fetchContext(conn, { recorder: log });
      expect(context.accounts.map((a) => a.code)).toEqual(
        expect.arrayContaining(['1920', '2400', '2710', '6540', '7140']),
      );
      expect(context.accounts.every((a) => a.name.length > 0)).toBe(true);
      expect(context.vatTypes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ ratePercent: '25' }),
          expect.objectContaining({ ratePercent: '15' }),
        ]),
      );
      expect(context.departments.length).toBeGreaterThan(0);
      expect(context.employees[0]).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          firstName: expect.any(String),
          lastName: expect.any(String),
        }),
      );
      expect(log.calls[0]).toEqual({ method: 'PUT', path: '/token/session/:create', status: 200 });
      expect(log.calls.slice(1).map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
        'GET /ledger/account 200',
        'GET /department 200',
        'GET /ledger/vatType 200',
        'GET /employee 200',
        'GET /ledger/voucherType 200',
        'GET /supplier 200',
      ]);
      expect(context.voucherTypes).toContainEqual({ id: expect.any(String), name: 'Leverandørfaktura' });
      // The sandbox keeps one inactive supplier (its last); only inactive ones are recorded.
      expect(context.inactiveSuppliers).toEqual([
        { id: expect.any(String), name: 'IKEA AS', organizationNumber: expect.stringMatching(/^\d{9}$/) },
      ]);
    });

    it('records calls without query strings or secrets', async () => {
      const log = new ApiCallLog();
      await provider().fetchContext(conn, { recorder: log });
      const recorded = JSON.stringify(log.calls);
      expect(recorded).not.toContain('?');
      expect(recorded).not.toContain(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(recorded).not.toContain(SANDBOX_TRIPLETEX_CONSUMER_TOKEN);
    });

    it('reads closing balances at a date in øre, with the bank account among them', async () => {
      const balances = await provider().balances(conn, TODAY);
      expect(balances.length).toBeGreaterThan(3);
      expect(balances.every((b) => Number.isInteger(b.balance))).toBe(true);
      expect(balances.find((b) => b.code === '1920')?.balance).not.toBe(0);
      // The seeded year starts last year: what the balances lack to sum to zero is last year's result,
      // since result accounts count the year's movement only.
      const lastYear = await provider().balances(conn, `${Number(TODAY.slice(0, 4)) - 1}-12-31`);
      const result = (code: string) => Number(code) >= 3000 && Number(code) < 9000;
      const lastYearsResult = lastYear.filter((b) => result(b.code)).reduce((sum, b) => sum + b.balance, 0);
      expect(lastYearsResult).not.toBe(0);
      const total = balances.reduce((sum, b) => sum + b.balance, 0);
      expect(total + lastYearsResult).toBe(0);
    });

    it('pages through every voucher since a date, a short page ending it, dateTo exclusive', async () => {
      const from = addDays(TODAY, -200);
      const log = new ApiCallLog();
      const handedOut = [];
      for await (const page of provider({ pageSize: 25 }).voucherPages(conn, from, undefined, { recorder: log })) {
        handedOut.push(page);
      }
      const vouchers = handedOut.flat();
      const pages = log.calls.filter((c) => c.path === '/ledger/voucher');
      expect(vouchers.length).toBeGreaterThan(75);
      expect(pages).toHaveLength(Math.floor(vouchers.length / 25) + 1);
      expect(handedOut.map((page) => page.length)).toEqual([...Array(pages.length - 1).fill(25), vouchers.length % 25]);
      expect(new Set(vouchers.map((v) => v.id)).size).toBe(vouchers.length);
      expect(vouchers.every((v) => v.date >= from && v.date <= TODAY)).toBe(true);
      expect(vouchers.some((v) => !v.hasAttachment)).toBe(true);
      expect(vouchers.some((v) => v.hasAttachment)).toBe(true);
      expect(vouchers.every((v) => v.amount === undefined || Number.isInteger(v.amount))).toBe(true);
      const query = sandbox.control.calls({ path: '/ledger/voucher' });
      expect(query.length).toBe(pages.length);
    });

    it('includes vouchers dated today (dateTo is the day after)', async () => {
      const provider1 = provider();
      await provider1.bookExpense(conn, booking());
      const found = [];
      for await (const page of provider1.voucherPages(conn, TODAY, TODAY)) {
        found.push(...page);
      }
      expect(found.map((v) => v.description)).toEqual(expect.arrayContaining([expect.stringContaining('Clas Ohlson')]));
    });

    it('reads a year of expense bookings: supplier invoices, then card and bank vouchers, page by page', async () => {
      const from = addDays(TODAY, -365);
      const log = new ApiCallLog();
      const pages = [];
      for await (const page of provider({ pageSize: 20 }).bookingHistoryPages(conn, from, TODAY, null, {
        recorder: log,
      })) {
        pages.push(page);
      }
      const bookings = pages.flatMap((page) => page.bookings);

      expect(pages.at(-1)?.cursor).toBeNull();
      expect(log.calls.filter((c) => c.path === '/supplierInvoice').length).toBeGreaterThan(1);
      expect(log.calls.filter((c) => c.path === '/ledger/voucher').length).toBeGreaterThan(1);
      expect(bookings.every((b) => b.date >= from && b.date <= TODAY && b.amount > 0)).toBe(true);
      expect(new Set(bookings.map((b) => b.bookingId)).size).toBe(bookings.length);
      const telenor = bookings.filter((b) => b.merchant === 'Telenor Norge AS' && b.kind === 'supplier_invoice');
      expect(telenor.length).toBeGreaterThanOrEqual(11);
      expect(telenor.every((b) => b.accountCode === '6900' && b.vatRate === '25')).toBe(true);
      expect(bookings.some((b) => b.kind === 'voucher')).toBe(true);
      expect(bookings.every((b) => !['1920', '2400', '3000', '5000'].includes(b.accountCode))).toBe(true);
    });

    it('resumes an interrupted history read from the cursor of its last page', async () => {
      const from = addDays(TODAY, -365);
      const all = [];
      let third: string | null = null;
      let n = 0;
      for await (const page of provider({ pageSize: 20 }).bookingHistoryPages(conn, from, TODAY, null)) {
        all.push(...page.bookings);
        if (++n === 3) third = page.cursor;
      }
      const upToThird = [];
      n = 0;
      for await (const page of provider({ pageSize: 20 }).bookingHistoryPages(conn, from, TODAY, null)) {
        upToThird.push(...page.bookings);
        if (++n === 3) break;
      }
      const rest = [];
      for await (const page of provider({ pageSize: 20 }).bookingHistoryPages(conn, from, TODAY, third)) {
        rest.push(...page.bookings);
      }

      expect([...upToThird, ...rest].map((b) => b.bookingId)).toEqual(all.map((b) => b.bookingId));
    });

    it('waits out a 429 in the middle of a history read and goes on', async () => {
      sandbox.control.addFault({ provider: 'tripletex', path: '/supplierInvoice', rateLimit: { next: 1 } });
      const log = new ApiCallLog();
      const bookings = [];
      for await (const page of provider().bookingHistoryPages(conn, addDays(TODAY, -365), TODAY, null, {
        recorder: log,
      })) {
        bookings.push(...page.bookings);
      }
      expect(
        log.calls
          .filter((c) => c.path === '/supplierInvoice')
          .map((c) => c.status)
          .slice(0, 2),
      ).toEqual([429, 200]);
      expect(bookings.length).toBeGreaterThan(0);
    });

    it('lists invoices with an amount outstanding, some of them past due', async () => {
      const invoices = [];
      for await (const page of provider({ pageSize: 10 }).openInvoicePages(conn, TODAY)) {
        invoices.push(...page);
      }
      expect(invoices.length).toBeGreaterThan(0);
      expect(invoices.every((i) => i.outstanding > 0 && i.outstanding <= i.amount && i.issueDate <= TODAY)).toBe(true);
      expect(invoices.some((i) => i.dueDate < TODAY)).toBe(true);
      expect(invoices[0]).toEqual(
        expect.objectContaining({ customerName: expect.any(String), currency: 'NOK', number: expect.any(String) }),
      );
    });

    it('reports each invoice in its own currency, named, with amount and outstanding in it', async () => {
      const invoices = [];
      for await (const page of provider().openInvoicePages(conn, TODAY)) invoices.push(...page);
      const euro = invoices.filter((i) => i.currency === 'EUR');
      expect(euro.length).toBeGreaterThan(0);
      expect(invoices.every((i) => i.currency === 'EUR' || i.currency === 'NOK')).toBe(true);
      expect(euro.every((i) => i.amount > 0 && i.outstanding <= i.amount)).toBe(true);
    });

    it("reports a booked voucher's gross once, without the VAT posting Tripletex generates", async () => {
      const tx = provider();
      const booked = await tx.bookExpense(conn, booking({ grossAmount: 13_500 }));
      const vouchers = [];
      for await (const page of tx.voucherPages(conn, TODAY)) vouchers.push(...page);
      expect(vouchers.find((v) => v.id === booked.bookingId)?.amount).toBe(13_500);
    });
  });

  describe('sessions', () => {
    it('creates one session for concurrent calls and reuses it', async () => {
      const tx = provider();
      await Promise.all([tx.balances(conn, TODAY), tx.fetchContext(conn), tx.balances(conn, TODAY)]);
      await tx.balances(conn, TODAY);
      expect(sessionCreates()).toBe(1);
    });

    it('asks for a session that expires tomorrow in Oslo, never today, even late in the UTC evening', async () => {
      const expirationDates = async () =>
        (await exchangesDuring(() => provider().balances(conn, TODAY)))
          .filter((e) => e.path === '/token/session/:create')
          .map((e) => e.query.get('expirationDate'));
      clock.set(`${TODAY}T23:30:00Z`);
      expect(await expirationDates()).toEqual([addDays(TODAY, 2)]);
      clock.set(`${TODAY}T10:00:00Z`);
      expect(await expirationDates()).toEqual([addDays(TODAY, 1)]);
    });

    it('renews the session before its hour is up', async () => {
      const tx = provider();
      await tx.balances(conn, TODAY);
      clock.advance(50 * 60_000);
      await tx.balances(conn, TODAY);
      expect(sessionCreates()).toBe(1);
      clock.advance(6 * 60_000);
      await tx.balances(conn, TODAY);
      expect(sessionCreates()).toBe(2);
    });

    it('renews once on a 401 when the provider expires the session early', async () => {
      const tx = provider();
      await tx.balances(conn, TODAY);
      expect(sandbox.control.expireTokens('tripletex')).toBeGreaterThan(0);
      const log = new ApiCallLog();
      await tx.balances(conn, TODAY, { recorder: log });
      expect(log.calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
        'GET /balanceSheet 401',
        'PUT /token/session/:create 200',
        'GET /balanceSheet 200',
      ]);
    });

    it('renews once for many parallel callers refused with 401', async () => {
      const tx = provider();
      await tx.balances(conn, TODAY);
      sandbox.control.expireTokens('tripletex');
      await Promise.all(Array.from({ length: 8 }, () => tx.balances(conn, TODAY)));
      expect(sessionCreates()).toBe(2);
    });

    it('makes a new session at once after a reconnect, and never uses the old one for it', async () => {
      const tx = provider();
      await tx.balances(conn, TODAY);

      // The admin connects again (the stored record's connectedAt changes): the next call, well within
      // the old session's hour, makes a session from the new credentials.
      clock.advance(5 * 60_000);
      await tx.balances(connection(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN, 'demo', 'connected-2'), TODAY);
      expect(sessionCreates()).toBe(2);
      // …and keeps using it.
      await tx.balances(connection(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN, 'demo', 'connected-2'), TODAY);
      expect(sessionCreates()).toBe(2);
    });

    it('refuses a revoked employee token as provider_not_connected, without retrying', async () => {
      const error = await provider()
        .balances(connection('not-an-employee-token'), TODAY)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'provider_not_connected', transient: false });
      expect(sessionCreates()).toBe(1);
    });

    it("keeps Tripletex's message when the consumer token is refused (422 → provider_error)", async () => {
      const error = await provider({ consumerToken: 'wrong' })
        .balances(conn, TODAY)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_error', transient: false, status: 422 });
      expect((error as Error).message).toContain('Ugyldig consumer token');
      expect((error as ProviderError).fieldErrors).toEqual([expect.objectContaining({ field: 'consumerToken' })]);
    });
  });

  describe('booking', () => {
    it('books a balanced voucher with the VAT type looked up by rate, our reference and the receipt', async () => {
      const log = new ApiCallLog();
      const result = await provider().bookExpense(
        conn,
        booking({ receipt: { filename: 'kvittering.pdf', contentType: 'application/pdf', bytes: PDF } }),
        {
          recorder: log,
        },
      );
      expect(result).toEqual({ bookingId: expect.any(String), hasAttachment: true });
      const [voucher] = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(String(voucher.id)).toBe(result.bookingId);
      expect(voucher.externalVoucherNumber).toBe(booking().reference);
      expect(voucher.attachment).not.toBeNull();
      const gross = voucher.postings.filter((p) => !p.systemGenerated).map((p) => p.amountGross);
      expect(gross.sort((a, b) => a - b)).toEqual([-13_500, 13_500]);
      const vatLine = voucher.postings.find((p) => p.systemGenerated);
      expect(vatLine?.amount).toBe(2_700);
      expect(log.calls.filter((c) => c.method === 'POST').map((c) => `${c.path} ${c.status}`)).toEqual([
        '/ledger/voucher 201',
        `/ledger/voucher/${result.bookingId}/attachment 200`,
      ]);
      // The expense's account and the bank's in one read of the chart: each request spends the
      // company's rate window.
      expect(log.calls.filter((c) => c.path === '/ledger/account')).toHaveLength(1);
    });

    it('says "merchant: description", or the merchant alone when there is no description', async () => {
      const tx = provider();
      await tx.bookExpense(conn, booking({ description: null }));
      await tx.bookExpense(conn, booking({ reference: 'second', description: 'Skrivepapir' }));
      const [first, second] = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(first.postings[0].description).toBe('Clas Ohlson');
      expect(second.postings[0].description).toBe('Clas Ohlson: Skrivepapir');
    });

    it('keeps the (ref …) marker first and the text within 255 characters, however long merchant and description', async () => {
      const long = booking({ merchant: 'Clas Ohlson '.repeat(20).trim(), description: 'papir og penner '.repeat(60) });
      await provider().bookExpense(conn, long);
      const [voucher] = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(voucher.description.startsWith(`(ref ${long.reference}) Clas Ohlson`)).toBe(true);
      expect(Array.from(voucher.description).length).toBeLessThanOrEqual(255);
      expect(voucher.externalVoucherNumber).toBe(long.reference);
    });

    it('books an expense in another currency at the NOK amount paid, with the currency amount beside it', async () => {
      const tx = provider();
      const result = await tx.bookExpense(conn, booking({ currency: 'EUR', grossAmount: 12_500, amountNok: 146_250 }));
      const [voucher] = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(String(voucher.id)).toBe(result.bookingId);
      const entered = voucher.postings.filter((p) => !p.systemGenerated);
      expect(entered.map((p) => [p.amountGross, p.amountGrossCurrency])).toEqual([
        [146_250, 12_500],
        [-146_250, -12_500],
      ]);
      expect(new Set(entered.map((p) => p.currencyId)).size).toBe(1);
      expect(entered[0].currencyId).not.toBe(1);
    });

    it('refuses an expense in another currency without the NOK amount, before calling Tripletex', async () => {
      const error = await provider()
        .bookExpense(conn, booking({ currency: 'EUR', amountNok: null }))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_error', transient: false });
      expect(sandbox.control.calls({ provider: 'tripletex' })).toHaveLength(0);
    });

    it.each([
      ['a WebP photo', 'webp', 'image/jpeg', 'kvittering.jpg'],
      ['a GIF', 'gif', 'image/png', 'kvittering.png'],
      ['a TIFF scan', 'tiff', 'image/tiff', 'kvittering.tif'],
    ] as const)('attaches %s as Tripletex takes it (%s → %s)', async (_name, format, contentType, filename) => {
      const bytes = await image(format);
      const exchanges = await exchangesDuring(() =>
        provider().bookExpense(
          conn,
          booking({ receipt: { filename: `kvittering.${format}`, contentType: `image/${format}`, bytes } }),
        ),
      );
      const upload = exchanges.find((e) => e.path.endsWith('/attachment'));
      expect(upload?.status).toBe(200);
      expect(upload?.requestBody).toMatchObject({
        kind: 'multipart',
        files: [{ field: 'file', filename, contentType }],
      });
    });

    it('refuses a receipt it cannot convert before booking anything', async () => {
      const bytes = new TextEncoder().encode('RIFF0000WEBPnot really an image');
      const error = await provider()
        .bookExpense(conn, booking({ receipt: { filename: 'r.webp', contentType: 'image/webp', bytes } }))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_error', transient: false });
      expect((error as ProviderError).bookingId).toBeUndefined();
      expect(sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)).toHaveLength(0);
    });

    it('finds a booking again by our reference, and nothing for another reference', async () => {
      const tx = provider();
      const booked = await tx.bookExpense(conn, booking());
      const log = new ApiCallLog();
      await expect(tx.findBookingByReference(conn, booking().reference, TODAY, { recorder: log })).resolves.toEqual({
        bookingId: booked.bookingId,
        hasAttachment: false,
      });
      expect(log.calls).toEqual([{ method: 'GET', path: '/ledger/voucher/>externalVoucherNumber', status: 200 }]);
      await expect(tx.findBookingByReference(conn, 'some-other-proposal', TODAY)).resolves.toBeNull();
    });

    it('refuses an account missing from the chart with unknown_account_code, booking nothing', async () => {
      await expect(provider().bookExpense(conn, booking({ accountCode: '6999' }))).rejects.toMatchObject({
        code: 'unknown_account_code',
        transient: false,
      });
      expect(sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)).toHaveLength(0);
    });

    it('refuses a rate with no VAT type with unknown_vat_rate', async () => {
      await expect(provider().bookExpense(conn, booking({ vatRate: '7' }))).rejects.toMatchObject({
        code: 'unknown_vat_rate',
      });
    });

    it('finds the voucher when the connection drops after Tripletex booked it, and books it once', async () => {
      sandbox.control.addFault({
        provider: 'tripletex',
        method: 'POST',
        path: '/ledger/voucher',
        dropConnections: { next: 1, afterHandling: true },
      });
      const log = new ApiCallLog();
      const result = await provider().bookExpense(conn, booking(), { recorder: log });
      const bookings = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(bookings).toHaveLength(1);
      expect(String(bookings[0].id)).toBe(result.bookingId);
      expect(log.calls.find((c) => c.method === 'POST')).toEqual({
        method: 'POST',
        path: '/ledger/voucher',
        status: 0,
      });
    });

    it('looks an unknown create up again when the first searches miss it, and books it once', async () => {
      sandbox.control.addFault({
        provider: 'tripletex',
        method: 'POST',
        path: '/ledger/voucher',
        dropConnections: { next: 1, afterHandling: true },
      });
      // The first lookup's two searches (by external number, then by date) miss the new voucher.
      sandbox.control.addFault({ provider: 'tripletex', path: '/ledger/voucher', hideResults: { next: 2 } });
      const result = await provider().bookExpense(conn, booking());
      const bookings = sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN);
      expect(bookings).toHaveLength(1);
      expect(String(bookings[0].id)).toBe(result.bookingId);
    });

    it('never resends a create whose outcome is unknown: a dropped request stays unbooked and transient', async () => {
      sandbox.control.addFault({
        provider: 'tripletex',
        method: 'POST',
        path: '/ledger/voucher',
        dropConnections: { next: 1 },
      });
      const tx = provider();
      const error = await tx.bookExpense(conn, booking()).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_unavailable', transient: true });
      expect(sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)).toHaveLength(0);
      await expect(tx.findBookingByReference(conn, booking().reference, TODAY)).resolves.toBeNull();
      await tx.bookExpense(conn, booking());
      expect(sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)).toHaveLength(1);
    });

    it('reports a failed receipt upload with the booking id, and attaches it later', async () => {
      sandbox.control.addFault({
        provider: 'tripletex',
        method: 'POST',
        path: '/attachment',
        errorRate: 1,
        errorStatus: 500,
      });
      const tx = provider({ resilience: { retries: 0 } });
      const receipt = { filename: 'r.pdf', contentType: 'application/pdf', bytes: PDF };
      const error = await tx.bookExpense(conn, booking({ receipt })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      const bookingId = (error as ProviderError).bookingId;
      expect(bookingId).toBeDefined();
      await expect(tx.findBookingByReference(conn, booking().reference, TODAY)).resolves.toEqual({
        bookingId,
        hasAttachment: false,
      });
      sandbox.control.clearFaults();
      await tx.attachReceipt(conn, bookingId as string, receipt);
      await expect(tx.findBookingByReference(conn, booking().reference, TODAY)).resolves.toEqual({
        bookingId,
        hasAttachment: true,
      });
      expect(sandbox.control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)).toHaveLength(1);
    });
  });

  describe('faults', () => {
    it('retries injected 5xx answers and succeeds', async () => {
      sandbox.control.addFault({ provider: 'tripletex', path: '/balanceSheet', errorNext: 2, errorStatus: 503 });
      const log = new ApiCallLog();
      await provider().balances(conn, TODAY, { recorder: log });
      expect(log.calls.filter((c) => c.path === '/balanceSheet').map((c) => c.status)).toEqual([503, 503, 200]);
    });

    it('gives up on a provider that keeps failing with provider_unavailable (503), keeping its message', async () => {
      sandbox.control.addFault({ provider: 'tripletex', path: '/balanceSheet', errorRate: 1 });
      const error = await provider()
        .balances(conn, TODAY)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_unavailable', transient: true, status: 500 });
      expect((error as Error).message).toContain('En uventet feil oppstod');
    });

    it('times out a slow provider with provider_timeout (504)', async () => {
      sandbox.control.addFault({ provider: 'tripletex', path: '/balanceSheet', latencyMs: 1_000 });
      const log = new ApiCallLog();
      const error = await provider({ resilience: { timeoutMs: 150, retries: 1 } })
        .balances(conn, TODAY, { recorder: log })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_timeout', transient: true });
      expect(log.calls.filter((c) => c.path === '/balanceSheet').map((c) => c.status)).toEqual([0, 0]);
    });

    it('retries dropped connections', async () => {
      sandbox.control.addFault({ provider: 'tripletex', path: '/balanceSheet', dropConnections: { next: 2 } });
      await expect(provider().balances(conn, TODAY)).resolves.toBeDefined();
    });

    it('waits X-Rate-Limit-Reset seconds after a 429 and retries', async () => {
      sandbox.control.addFault({
        provider: 'tripletex',
        path: '/balanceSheet',
        rateLimit: { next: 1, omitRetryHeader: false },
      });
      const started = Date.now();
      await provider().balances(conn, TODAY);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    });

    it('waits about 2 s after a 429 without a reset header', async () => {
      sandbox.control.addFault({
        provider: 'tripletex',
        path: '/balanceSheet',
        rateLimit: { next: 1 },
      });
      const log = new ApiCallLog();
      const started = Date.now();
      await provider().balances(conn, TODAY, { recorder: log });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(log.calls.filter((c) => c.path === '/balanceSheet').map((c) => c.status)).toEqual([429, 200]);
    });

    /**
     * A sandbox of its own whose Tripletex window allows `limit` requests per `windowSeconds`, and a
     * provider on real time (the sandbox's sessions run on it) without retries, pointed at it.
     */
    async function withWindow(
      limit: number,
      windowSeconds: number,
      run: (tx: TripletexProvider, limitedConn: TripletexConnection, limited: Sandbox) => Promise<void>,
    ): Promise<void> {
      const limited = createSandbox({
        seed: 11,
        ledgerEndDate: TODAY,
        companies: 1,
        tripletex: { rateLimit: { limit, windowSeconds } },
      });
      const server = await limited.start(0, '127.0.0.1');
      try {
        const tx = new TripletexProvider(
          { consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN, resilience: { ...FAST, retries: 0 } },
          { now: () => new Date() },
        );
        await run(tx, { ...conn, baseUrl: server.tripletexApi }, limited);
      } finally {
        await server.close();
      }
    }

    it('pauses when X-Rate-Limit-Remaining reaches 0 instead of running into 429', async () => {
      await withWindow(3, 1, async (tx, limitedConn, limited) => {
        for (let i = 0; i < 4; i++) {
          await tx.balances(limitedConn, TODAY);
        }
        expect(limited.control.calls({ status: 429 })).toHaveLength(0);
        expect(limited.control.calls().length).toBe(5);
      });
    });

    it('does not wait for a spent window longer than the call accepts: fails at once, windowClosed, nothing sent', async () => {
      await withWindow(3, 30, async (tx, limitedConn, limited) => {
        // The session and two reads spend the window of three.
        await tx.balances(limitedConn, TODAY);
        await tx.balances(limitedConn, TODAY);
        const started = Date.now();
        const error = await tx
          .findBookingByReference(limitedConn, 'some-proposal', TODAY, { maxRateLimitWaitMs: 1_000 })
          .catch((e: unknown) => e);
        expect(Date.now() - started).toBeLessThan(1_000);
        expect(error).toMatchObject({ reason: 'rate_limited', transient: true, windowClosed: true });
        expect((error as ProviderError).retryAfterSeconds).toBeGreaterThan(20);
        expect(limited.control.calls()).toHaveLength(3);
      });
    });

    it('opens the circuit after repeated failures and fails fast with provider_unavailable', async () => {
      sandbox.control.addFault({ provider: 'tripletex', path: '/balanceSheet', errorRate: 1 });
      const tx = provider({ resilience: { retries: 0, breakerThreshold: 3, breakerHalfOpenAfterMs: 60_000 } });
      for (let i = 0; i < 3; i++) {
        await expect(tx.balances(conn, TODAY)).rejects.toMatchObject({ reason: 'unavailable' });
      }
      const before = sandbox.control.calls({ path: '/balanceSheet' }).length;
      await expect(tx.balances(conn, TODAY)).rejects.toMatchObject({
        code: 'provider_unavailable',
        reason: 'circuit_open',
        retryAfterSeconds: 60,
      });
      expect(sandbox.control.calls({ path: '/balanceSheet' }).length).toBe(before);
    });
  });
});
