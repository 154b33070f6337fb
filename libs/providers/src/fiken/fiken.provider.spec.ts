import sharp from 'sharp';
import {
  createSandbox,
  fikenCompanySlug,
  inspectSandboxExchanges,
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_FIKEN_DEMO_SLUG,
  type RunningSandbox,
  type Sandbox,
  type SandboxExchange,
} from '@app/sandbox';
import { ApiCallLog, Clock, ExpenseBooking, ProviderError, ProviderReauthorizationRequired } from '@app/domain';
import type { FikenConnection } from './fiken-connection';
import { aBooking, checkProviderContract } from '@app/testing';
import { readableReference } from '../shared/booking-text';
import { addDays } from '../shared/dates';
import { InMemoryProviderTokenStore } from '@app/testing';
import { FikenConfig } from './fiken.config';
import { FikenProvider } from './fiken.provider';

const TODAY = '2026-03-16';
const COMPANY = 'demo-fiken';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class ManualClock extends Clock {
  private current = Date.parse(`${TODAY}T10:00:00Z`);

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  reset(): void {
    this.current = Date.parse(`${TODAY}T10:00:00Z`);
  }
}

const FAST = { timeoutMs: 400, retries: 2, initialBackoffMs: 5, maxBackoffMs: 20, breakerThreshold: 1_000 };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('FikenProvider against the Fiken sandbox', () => {
  checkProviderContract();

  let clock: ManualClock;
  let sandbox: Sandbox;
  let running: RunningSandbox;
  let store: InMemoryProviderTokenStore;
  let conn: FikenConnection;

  beforeAll(async () => {
    clock = new ManualClock();
    sandbox = createSandbox({
      seed: 5,
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

  beforeEach(async () => {
    sandbox.control.reset();
    clock.reset();
    store = new InMemoryProviderTokenStore();
    conn = {
      provider: 'fiken',
      companyId: COMPANY,
      baseUrl: running.fikenApi,
      tokenUrl: `${running.fikenOAuth}/token`,
      companySlug: SANDBOX_FIKEN_DEMO_SLUG,
    };
    await connect();
  });

  async function connect(): Promise<void> {
    const issued = sandbox.control.for('fiken').issueTokens(SANDBOX_FIKEN_DEMO_SLUG);
    await store.save(COMPANY, 'fiken', {
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      expiresAt: clock.now().getTime() + issued.expires_in * 1000,
    });
  }

  function provider(overrides: Partial<FikenConfig> = {}): FikenProvider {
    return new FikenProvider(
      {
        clientId: SANDBOX_FIKEN_CLIENT_ID,
        clientSecret: SANDBOX_FIKEN_CLIENT_SECRET,
        settleBeforeLookupMs: 10,
        // The pace between request starts is request-turns.spec's and the e2e's subject.
        requestPaceMs: 0,
        ...overrides,
        resilience: { ...FAST, ...overrides.resilience },
      },
      store,
      clock,
    );
  }

  const tokenCalls = () => sandbox.control.calls({ provider: 'fiken', path: '/oauth/token' });

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

  const image = (format: 'webp' | 'gif' | 'tiff') =>
    sharp({ create: { width: 8, height: 6, channels: 3, background: '#3c3' } })
      .toFormat(format)
      .toBuffer()
      .then((bytes) => new Uint8Array(bytes));
  const purchases = () => sandbox.control.for('fiken').bookings(SANDBOX_FIKEN_DEMO_SLUG);

  function booking(overrides: Partial<ExpenseBooking> = {}): ExpenseBooking {
    return aBooking({
      reference: '0190f1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b',
      date: TODAY,
      description: 'Spotify Premium',
      merchant: 'Spotify AB',
      accountCode: '6540',
      vatRate: '25',
      grossAmount: 11_900,
      currency: 'NOK',
      amountNok: null,
      paymentAccount: '1920',
      ...overrides,
    });
  }

  describe('reading', () => {
    it('fetches the chart and the purchase VAT types as context', async () => {
      const log = new ApiCallLog();
      const context = await provider().fetchContext(conn, { recorder: log });
      expect(context.accounts.map((a) => a.code)).toEqual(expect.arrayContaining(['1920:10001', '6540', '2710']));
      expect(context.vatTypes.map((v) => `${v.code} ${v.ratePercent}`)).toEqual(
        expect.arrayContaining(['HIGH 25', 'MEDIUM 15', 'LOW 12', 'NONE 0']),
      );
      expect(log.calls).toEqual([
        { method: 'GET', path: `/companies/${SANDBOX_FIKEN_DEMO_SLUG}/accounts`, status: 200 },
        { method: 'GET', path: `/companies/${SANDBOX_FIKEN_DEMO_SLUG}/bankAccounts`, status: 200 },
        { method: 'GET', path: `/companies/${SANDBOX_FIKEN_DEMO_SLUG}/contacts`, status: 200 },
      ]);
    });

    it("reads balances at a date in øre: result accounts for the year only, last year's result left out", async () => {
      const fk = provider({ pageSize: 30 });
      const balances = await fk.balances(conn, TODAY);
      expect(balances.length).toBeGreaterThan(5);
      expect(balances.every((b) => Number.isInteger(b.balance))).toBe(true);
      // The seeded year starts last year: what the balances lack to sum to zero is last year's result.
      const lastYear = await fk.balances(conn, `${Number(TODAY.slice(0, 4)) - 1}-12-31`);
      const result = (code: string) => Number(code.slice(0, 4)) >= 3000 && Number(code.slice(0, 4)) < 9000;
      const lastYearsResult = lastYear.filter((b) => result(b.code)).reduce((sum, b) => sum + b.balance, 0);
      expect(lastYearsResult).not.toBe(0);
      expect(balances.reduce((sum, b) => sum + b.balance, 0) + lastYearsResult).toBe(0);
    });

    it('pages through journal entries with the page-count header, some without attachments', async () => {
      const from = addDays(TODAY, -300);
      const log = new ApiCallLog();
      const pages = [];
      for await (const page of provider({ pageSize: 20 }).voucherPages(conn, from, undefined, { recorder: log })) {
        pages.push(page);
      }
      const entries = pages.flat();
      expect(entries.length).toBeGreaterThan(100);
      // The period's purchases first (whose own attachments document their entries), then the entries.
      const journal = log.calls.filter((c) => c.path.endsWith('/journalEntries'));
      expect(log.calls[0].path).toMatch(/\/purchases$/);
      expect(journal).toHaveLength(Math.ceil(entries.length / 20));
      expect(pages).toHaveLength(journal.length);
      expect(pages.slice(0, -1).every((page) => page.length === 20)).toBe(true);
      expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
      expect(entries.every((e) => e.date >= from && e.date <= TODAY)).toBe(true);
      expect(entries.some((e) => !e.hasAttachment)).toBe(true);
      expect(entries.some((e) => e.hasAttachment)).toBe(true);
      expect(entries.every((e) => Number.isInteger(e.amount) && (e.amount ?? 0) > 0)).toBe(true);
      // Sales and salaries need no receipt; purchases do.
      expect(entries.some((e) => e.needsReceipt === false)).toBe(true);
      expect(entries.some((e) => e.needsReceipt === true)).toBe(true);
    });

    it('reads a year of purchases page by page: suppliers by name, card purchases by their descriptor', async () => {
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
      expect(log.calls.filter((c) => c.path.endsWith('/purchases')).length).toBeGreaterThan(2);
      expect(bookings.every((b) => b.date >= from && b.date <= TODAY && b.kind === 'purchase')).toBe(true);
      expect(bookings.filter((b) => b.merchant === 'Fjordkraft AS').every((b) => b.accountCode === '6340')).toBe(true);
      expect(bookings.some((b) => /^SPOTIFY AB \*/.test(b.merchant) && b.vatRate === '25')).toBe(true);
      expect(bookings.some((b) => b.merchant.startsWith('UBER *EATS') && b.vatRate === '15')).toBe(true);

      const resumed = [];
      for await (const page of provider({ pageSize: 20 }).bookingHistoryPages(conn, from, TODAY, pages[1].cursor)) {
        resumed.push(...page.bookings);
      }
      expect(resumed.map((b) => b.bookingId)).toEqual(
        pages.slice(2).flatMap((p) => p.bookings.map((b) => b.bookingId)),
      );
    });

    it('lists unsettled invoices with their outstanding amount, some overdue', async () => {
      const invoices = [];
      for await (const page of provider({ pageSize: 10 }).openInvoicePages(conn, TODAY)) {
        invoices.push(...page);
      }
      expect(invoices.length).toBeGreaterThan(0);
      expect(invoices.every((i) => i.outstanding > 0 && i.outstanding <= i.amount && i.issueDate <= TODAY)).toBe(true);
      expect(invoices.some((i) => i.dueDate < TODAY)).toBe(true);
    });

    it('sends a fresh X-Request-ID uuid with every call', async () => {
      const exchanges = await exchangesDuring(async () => {
        await provider({ pageSize: 50 }).balances(conn, TODAY);
        await provider().fetchContext(conn);
      });
      const ids = exchanges.filter((e) => e.surface === 'api').map((e) => String(e.requestHeaders['x-request-id']));
      expect(ids.length).toBeGreaterThan(1);
      expect(ids.every((id) => UUID.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('reads the whole chart in one request, as Fiken does not page /accounts, so that every valid code is known', async () => {
      const log = new ApiCallLog();
      const context = await provider({ pageSize: 20 }).fetchContext(conn, { recorder: log });
      expect(context.accounts.length).toBeGreaterThan(25);
      expect(new Set(context.accounts.map((a) => a.code)).size).toBe(context.accounts.length);
      expect(context.accounts.map((a) => a.code)).toEqual(expect.arrayContaining(['1920:10001', '6540', '7350']));
      const chartCalls = log.calls.filter((c) => c.path.endsWith('/accounts') || c.path.includes('/accounts?'));
      expect(chartCalls).toHaveLength(1);
      expect(chartCalls[0].path).not.toContain('page');
    });

    it('reports each invoice in its own currency, with the outstanding amount in it', async () => {
      const invoices = [];
      for await (const page of provider().openInvoicePages(conn, TODAY)) invoices.push(...page);
      const euro = invoices.filter((i) => i.currency === 'EUR');
      expect(euro.length).toBeGreaterThan(0);
      expect(euro.every((i) => i.outstanding > 0 && i.outstanding <= i.amount)).toBe(true);
    });

    it('keeps one request in flight per application across companies, so concurrent operations never meet a 429', async () => {
      const second: FikenConnection = { ...conn, companyId: 'second-fiken', companySlug: fikenCompanySlug(1) };
      const issued = sandbox.control.for('fiken').issueTokens(fikenCompanySlug(1));
      await store.save('second-fiken', 'fiken', {
        accessToken: issued.access_token,
        refreshToken: issued.refresh_token,
        expiresAt: clock.now().getTime() + issued.expires_in * 1000,
      });
      const fk = provider({ pageSize: 25 });
      const drain = async (iterable: AsyncIterable<unknown>) => {
        for await (const _ of iterable) {
          // reading every page is the point
        }
      };
      await Promise.all([
        fk.fetchContext(conn),
        fk.balances(conn, TODAY),
        drain(fk.voucherPages(conn, addDays(TODAY, -120))),
        drain(fk.openInvoicePages(conn, TODAY)),
        fk.balances(conn, addDays(TODAY, -30)),
        fk.balances(second, TODAY),
        drain(fk.voucherPages(second, addDays(TODAY, -60))),
        fk.fetchContext(second),
      ]);
      expect(sandbox.control.calls({ provider: 'fiken', status: 429 })).toHaveLength(0);
      expect(sandbox.control.calls({ provider: 'fiken' }).length).toBeGreaterThan(10);
    });
  });

  describe('tokens', () => {
    it('refreshes shortly before expires_in runs out and stores the rotated refresh token', async () => {
      const before = await store.current(COMPANY, 'fiken');
      clock.advance(3_600_000 - 30_000);
      const log = new ApiCallLog();
      await provider().fetchContext(conn, { recorder: log });
      expect(log.calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
        'POST /fiken/oauth/token 200',
        `GET /companies/${SANDBOX_FIKEN_DEMO_SLUG}/accounts 200`,
        `GET /companies/${SANDBOX_FIKEN_DEMO_SLUG}/bankAccounts 200`,
        `GET /companies/${SANDBOX_FIKEN_DEMO_SLUG}/contacts 200`,
      ]);
      const after = await store.current(COMPANY, 'fiken');
      expect(after?.accessToken).not.toBe(before?.accessToken);
      expect(after?.refreshToken).not.toBe(before?.refreshToken);
      expect(after?.expiresAt).toBe(clock.now().getTime() + 3_600_000);
    });

    it('refreshes exactly once when 20 callers in two processes find the token expiring', async () => {
      const processA = provider();
      const processB = provider();
      clock.advance(3_600_000);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? processA : processB).balances(conn, TODAY)),
      );
      expect(results).toHaveLength(20);
      expect(tokenCalls()).toHaveLength(1);
      expect(store.rotationCount(COMPANY, 'fiken')).toBe(1);
      expect(sandbox.control.calls({ provider: 'fiken', status: 401 })).toHaveLength(0);
      expect(sandbox.control.calls({ provider: 'fiken', status: 429 })).toHaveLength(0);
    });

    it('refreshes once on a 401 when Fiken expires the access token early, then carries on', async () => {
      sandbox.control.expireTokens('fiken');
      const log = new ApiCallLog();
      await provider().fetchContext(conn, { recorder: log });
      expect(log.calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
        `GET /companies/${SANDBOX_FIKEN_DEMO_SLUG}/accounts 401`,
        'POST /fiken/oauth/token 200',
        `GET /companies/${SANDBOX_FIKEN_DEMO_SLUG}/accounts 200`,
        `GET /companies/${SANDBOX_FIKEN_DEMO_SLUG}/bankAccounts 200`,
        `GET /companies/${SANDBOX_FIKEN_DEMO_SLUG}/contacts 200`,
      ]);
    });

    it('uses the tokens another process already refreshed instead of refreshing again after a 401', async () => {
      const processA = provider();
      const processB = provider();
      sandbox.control.expireTokens('fiken');
      await Promise.all([processA.fetchContext(conn), processB.fetchContext(conn)]);
      expect(tokenCalls()).toHaveLength(1);
    });

    it('sends a refresh whose answer was lost again with the stored refresh token, and carries on', async () => {
      const before = await store.current(COMPANY, 'fiken');
      sandbox.control.addFault({ provider: 'fiken', path: '/oauth/token', errorNext: 1, errorStatus: 503 });
      clock.advance(3_600_000);
      await provider({ resilience: { retries: 0 } }).fetchContext(conn);
      expect(tokenCalls().map((c) => c.status)).toEqual([503, 200]);
      const after = await store.current(COMPANY, 'fiken');
      expect(after?.refreshToken).not.toBe(before?.refreshToken);
      expect(store.reauthorizationReason(COMPANY, 'fiken')).toBeNull();
    });

    it('asks for consent again when Fiken rotated the token during a refresh whose answer was lost', async () => {
      sandbox.control.addFault({
        provider: 'fiken',
        path: '/oauth/token',
        dropConnections: { next: 1, afterHandling: true },
      });
      clock.advance(3_600_000);
      const error = await provider({ resilience: { retries: 0 } })
        .fetchContext(conn)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderReauthorizationRequired);
      expect(tokenCalls()).toHaveLength(2);
      expect(store.reauthorizationReason(COMPANY, 'fiken')).toContain(
        'invalid_grant) after a refresh whose answer was lost',
      );
    });

    it('marks the connection for re-authorisation on invalid_grant and stops calling the token endpoint', async () => {
      sandbox.control.revokeRefreshTokens();
      clock.advance(3_600_000);
      const fk = provider();
      const error = await fk.fetchContext(conn).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderReauthorizationRequired);
      expect(error).toMatchObject({ code: 'provider_not_connected', transient: false });
      expect((error as Error).message).toContain('refresh token is invalid');
      expect(store.reauthorizationReason(COMPANY, 'fiken')).toContain('invalid_grant');
      await expect(store.current(COMPANY, 'fiken')).resolves.toBeNull();
      await expect(fk.fetchContext(conn)).rejects.toMatchObject({ code: 'provider_not_connected' });
      expect(tokenCalls()).toHaveLength(1);
    });

    it('reads the stored tokens once while paging through a ledger, and again after a minute', async () => {
      const reads = jest.spyOn(store, 'current');
      const fk = provider({ pageSize: 20 });
      let entries = 0;
      for await (const page of fk.voucherPages(conn, addDays(TODAY, -300))) entries += page.length;
      expect(entries).toBeGreaterThan(100);
      expect(reads).toHaveBeenCalledTimes(1);

      clock.advance(61_000);
      await fk.fetchContext(conn);
      expect(reads).toHaveBeenCalledTimes(2);
    });

    it('forgets a remembered token as soon as the company turns out to be disconnected', async () => {
      const fk = provider();
      await fk.fetchContext(conn);
      sandbox.control.revokeRefreshTokens();
      sandbox.control.expireTokens('fiken');
      await expect(fk.fetchContext(conn)).rejects.toMatchObject({ code: 'provider_not_connected' });

      await connect();
      await expect(fk.fetchContext(conn)).resolves.toMatchObject({ accounts: expect.any(Array) });
    });

    it('does not leak tokens into the recorded calls', async () => {
      const tokens = await store.current(COMPANY, 'fiken');
      clock.advance(3_600_000);
      const log = new ApiCallLog();
      await provider().fetchContext(conn, { recorder: log });
      const recorded = JSON.stringify(log.calls);
      expect(recorded).not.toContain(tokens?.accessToken);
      expect(recorded).not.toContain(tokens?.refreshToken);
      expect(recorded).not.toContain(SANDBOX_FIKEN_CLIENT_SECRET);
    });
  });

  describe('booking', () => {
    it('books a cash purchase with net and VAT in øre, the bank sub-ledger, our reference and the receipt', async () => {
      const log = new ApiCallLog();
      const result = await provider().bookExpense(
        conn,
        booking({ receipt: { filename: 'kvittering.png', contentType: 'image/png', bytes: PNG } }),
        {
          recorder: log,
        },
      );
      const [purchase] = purchases();
      expect(result).toEqual({ bookingId: String(purchase.purchaseId), hasAttachment: true });
      expect(purchase).toMatchObject({
        kind: 'cash_purchase',
        identifier: readableReference(booking().reference),
        paymentAccount: '1920:10001',
        currency: 'NOK',
        lines: [expect.objectContaining({ account: '6540', vatType: 'HIGH', netPrice: 9_520, vat: 2_380 })],
      });
      expect(purchase.purchaseAttachments).toHaveLength(1);
      const slug = SANDBOX_FIKEN_DEMO_SLUG;
      expect(log.calls.filter((c) => c.method === 'POST').map((c) => `${c.path} ${c.status}`)).toEqual([
        `/companies/${slug}/purchases 201`,
        `/companies/${slug}/purchases/${result.bookingId}/attachments 201`,
      ]);
    });

    it.each([
      ['15', 10_000, 'MEDIUM', 8_696, 1_304],
      ['12', 10_000, 'LOW', 8_929, 1_071],
      ['0', 10_000, 'NONE', 10_000, 0],
    ])(
      'splits a gross amount at %s %% so that net and VAT sum to it',
      async (vatRate, grossAmount, vatType, netPrice, vat) => {
        await provider().bookExpense(conn, booking({ vatRate, grossAmount, paymentAccount: '1920:10001' }));
        expect(purchases()[0].lines[0]).toMatchObject({ vatType, netPrice, vat });
      },
    );

    it('fits the line description into the 200 characters Fiken allows', async () => {
      const description = `Kontorstoler, skrivebord og lamper til det nye kontoret i Bergen ${'med montering '.repeat(80)}`;
      await provider().bookExpense(conn, booking({ merchant: 'IKEA Furuset', description }));
      const text = purchases()[0].lines[0].description;
      expect(Array.from(text).length).toBeLessThanOrEqual(200);
      expect(text.startsWith('IKEA Furuset: Kontorstoler, skrivebord og lamper')).toBe(true);
      expect(text.endsWith('…')).toBe(true);
    });

    it('says the merchant alone when there is no description', async () => {
      await provider().bookExpense(conn, booking({ description: null }));
      expect(purchases()[0].lines[0].description).toBe('Spotify AB');
    });

    it('books a purchase in another currency at the NOK amount paid, priced in its currency', async () => {
      const result = await provider().bookExpense(
        conn,
        booking({ currency: 'EUR', grossAmount: 12_500, amountNok: 146_250 }),
      );
      const [purchase] = purchases();
      expect(String(purchase.purchaseId)).toBe(result.bookingId);
      expect(purchase).toMatchObject({
        currency: 'EUR',
        paymentAmountInNok: 146_250,
        lines: [expect.objectContaining({ netPriceInCurrency: 10_000, vatInCurrency: 2_500 })],
      });
      expect(purchase.journalEntry.lines.find((l) => l.account === '1920:10001')?.amount).toBe(-146_250);
    });

    it('refuses a purchase in another currency without the NOK amount, before calling Fiken', async () => {
      const error = await provider()
        .bookExpense(conn, booking({ currency: 'EUR', amountNok: null }))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_error', transient: false });
      expect(sandbox.control.calls({ provider: 'fiken', method: 'POST' })).toHaveLength(0);
    });

    it.each([
      ['a WebP photo', 'webp', 'image/jpeg', 'kvittering.jpg'],
      ['a TIFF scan', 'tiff', 'image/png', 'kvittering.png'],
      ['a GIF', 'gif', 'image/gif', 'kvittering.gif'],
    ] as const)(
      'attaches %s as Fiken takes it (%s → %s), documenting the purchase',
      async (_name, format, contentType, filename) => {
        const bytes = await image(format);
        const exchanges = await exchangesDuring(() =>
          provider().bookExpense(
            conn,
            booking({ receipt: { filename: `kvittering.${format}`, contentType: `image/${format}`, bytes } }),
          ),
        );
        const upload = exchanges.find((e) => e.path.endsWith('/attachments'));
        expect(upload?.status).toBe(201);
        expect(upload?.query.get('attachToSale')).toBe('true');
        expect(upload?.query.get('attachToPayment')).toBe('true');
        expect(upload?.requestBody).toMatchObject({
          kind: 'multipart',
          fields: { filename },
          files: [{ field: 'file', filename, contentType }],
        });
        expect(purchases()[0].purchaseAttachments).toHaveLength(1);
      },
    );

    it('refuses a receipt it cannot convert before booking anything', async () => {
      const bytes = new TextEncoder().encode('RIFF0000WEBPnot really an image');
      const error = await provider()
        .bookExpense(conn, booking({ receipt: { filename: 'r.webp', contentType: 'image/webp', bytes } }))
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_error', transient: false });
      expect((error as ProviderError).bookingId).toBeUndefined();
      expect(purchases()).toHaveLength(0);
    });

    it('finds a purchase booked with the bare reference as its identifier, as earlier versions did', async () => {
      const issued = sandbox.control.for('fiken').issueTokens(SANDBOX_FIKEN_DEMO_SLUG);
      const created = await fetch(`${running.fikenApi}/companies/${SANDBOX_FIKEN_DEMO_SLUG}/purchases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${issued.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          identifier: booking().reference,
          date: TODAY,
          kind: 'cash_purchase',
          paid: true,
          paymentAccount: '1920:10001',
          currency: 'NOK',
          lines: [{ description: 'Spotify AB', netPrice: 9_520, vat: 2_380, account: '6540', vatType: 'HIGH' }],
        }),
      });
      expect(created.status).toBe(201);
      await expect(provider().findBookingByReference(conn, booking().reference, TODAY)).resolves.toEqual({
        bookingId: String(purchases()[0].purchaseId),
        hasAttachment: false,
      });
    });

    it('finds the purchase again by our reference, and nothing for another one', async () => {
      const fk = provider();
      const booked = await fk.bookExpense(conn, booking());
      await expect(fk.findBookingByReference(conn, booking().reference, TODAY)).resolves.toEqual({
        bookingId: booked.bookingId,
        hasAttachment: false,
      });
      await expect(fk.findBookingByReference(conn, 'another-proposal', TODAY)).resolves.toBeNull();
    });

    it("keeps Fiken's message when it refuses a purchase (provider_error, permanent)", async () => {
      const error = await provider()
        .bookExpense(conn, booking({ paymentAccount: '1920:10003' }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'provider_error', transient: false, status: 400 });
      expect((error as Error).message).toContain('is inactive');
    });

    it('refuses a rate Fiken has no VAT type for with unknown_vat_rate', async () => {
      await expect(provider().bookExpense(conn, booking({ vatRate: '7' }))).rejects.toMatchObject({
        code: 'unknown_vat_rate',
      });
      expect(purchases()).toHaveLength(0);
    });

    it('finds the purchase when the connection drops after Fiken created it, and books it once', async () => {
      sandbox.control.addFault({
        provider: 'fiken',
        method: 'POST',
        path: '/purchases',
        dropConnections: { next: 1, afterHandling: true },
      });
      const result = await provider().bookExpense(conn, booking());
      expect(purchases()).toHaveLength(1);
      expect(String(purchases()[0].purchaseId)).toBe(result.bookingId);
    });

    it('does not resend a purchase whose outcome is unknown', async () => {
      sandbox.control.addFault({
        provider: 'fiken',
        method: 'POST',
        path: '/purchases',
        errorNext: 1,
        errorStatus: 502,
      });
      const error = await provider()
        .bookExpense(conn, booking())
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'provider_unavailable', transient: true, status: 502 });
      expect(sandbox.control.calls({ method: 'POST', path: '/purchases' })).toHaveLength(1);
      expect(purchases()).toHaveLength(0);
    });
  });

  describe('faults', () => {
    it('backs off on 429 for Retry-After and retries', async () => {
      sandbox.control.addFault({ provider: 'fiken', path: '/accounts', rateLimit: { next: 1 } });
      const log = new ApiCallLog();
      const started = Date.now();
      await provider().fetchContext(conn, { recorder: log });
      expect(log.calls.filter((c) => c.path.endsWith('/accounts')).map((c) => c.status)).toEqual([429, 200]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });

    it('backs off exponentially on 429 without Retry-After', async () => {
      sandbox.control.addFault({ provider: 'fiken', path: '/accounts', rateLimit: { next: 2, omitRetryHeader: true } });
      const log = new ApiCallLog();
      await provider().fetchContext(conn, { recorder: log });
      expect(log.calls.filter((c) => c.path.endsWith('/accounts')).map((c) => c.status)).toEqual([429, 429, 200]);
    });

    it('retries 5xx answers', async () => {
      sandbox.control.addFault({ provider: 'fiken', path: '/accounts', errorNext: 2, errorStatus: 500 });
      const log = new ApiCallLog();
      await provider().fetchContext(conn, { recorder: log });
      expect(log.calls.filter((c) => c.path.endsWith('/accounts')).map((c) => c.status)).toEqual([500, 500, 200]);
    });

    it('retries dropped connections', async () => {
      sandbox.control.addFault({ provider: 'fiken', path: '/accounts', dropConnections: { next: 2 } });
      const log = new ApiCallLog();
      await provider().fetchContext(conn, { recorder: log });
      expect(log.calls.filter((c) => c.path.endsWith('/accounts')).map((c) => c.status)).toEqual([0, 0, 200]);
    });

    it('times out a slow Fiken with provider_timeout and releases the company queue', async () => {
      sandbox.control.addFault({ provider: 'fiken', path: '/accounts', latencyMs: 1_000 });
      const fk = provider({ resilience: { timeoutMs: 150, retries: 0 } });
      await expect(fk.fetchContext(conn)).rejects.toMatchObject({ code: 'provider_timeout', transient: true });
      sandbox.control.clearFaults();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await expect(fk.balances(conn, TODAY)).resolves.toBeDefined();
    });

    it('fails fast with provider_unavailable once the circuit is open', async () => {
      sandbox.control.addFault({ provider: 'fiken', path: '/accounts', errorRate: 1, errorStatus: 503 });
      const fk = provider({ resilience: { retries: 0, breakerThreshold: 2, breakerHalfOpenAfterMs: 30_000 } });
      await expect(fk.fetchContext(conn)).rejects.toMatchObject({ reason: 'unavailable' });
      await expect(fk.fetchContext(conn)).rejects.toMatchObject({ reason: 'unavailable' });
      await expect(fk.fetchContext(conn)).rejects.toMatchObject({
        code: 'provider_unavailable',
        reason: 'circuit_open',
        retryAfterSeconds: 30,
      });
      expect(sandbox.control.calls({ path: '/accounts' })).toHaveLength(2);
    });
  });
});
