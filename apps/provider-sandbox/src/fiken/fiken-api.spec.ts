import request from 'supertest';
import { fikenCompanySlug } from '../constants';
import { checkProviderContract, fikenAuthorize, SANDBOX_PDF, testSandbox } from '@app/testing';

// The answers are checked against Fiken's definition; some requests here are refused on purpose.
checkProviderContract({ requests: false });

const SLUG = 'demo-fiken-as';

async function setup(options: Parameters<typeof testSandbox>[0] = {}) {
  const sandbox = testSandbox(options);
  const tokens = await fikenAuthorize(sandbox.app);
  const bearer = `Bearer ${tokens.access_token}`;
  const get = (path: string, query: Record<string, string | number | boolean> = {}) =>
    request(sandbox.app).get(`/fiken/api/v2${path}`).query(query).set('Authorization', bearer);
  const post = (path: string, body: unknown) =>
    request(sandbox.app)
      .post(`/fiken/api/v2${path}`)
      .set('Authorization', bearer)
      .send(body as object);
  return { ...sandbox, bearer, get, post };
}

const purchase = (extra: Record<string, unknown> = {}, line: Record<string, unknown> = {}) => ({
  date: '2026-03-10',
  kind: 'cash_purchase',
  paid: true,
  currency: 'NOK',
  paymentAccount: '1920:10001',
  identifier: 'proposal-42',
  lines: [{ description: 'Kontorstol', netPrice: 1_080_000, vat: 270_000, account: '6540', vatType: 'HIGH', ...line }],
  ...extra,
});

describe('Fiken sandbox: reading', () => {
  it('lists the granted company', async () => {
    const { get } = await setup();
    const response = await get('/companies');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      expect.objectContaining({
        name: 'Demo Fiken AS',
        slug: SLUG,
        organizationNumber: expect.stringMatching(/^\d{9}$/),
        vatType: expect.any(String),
      }),
    ]);
  });

  it('does not page accounts, as the real endpoint: every account in one answer, whatever page says', async () => {
    const { get } = await setup();
    const first = await get(`/companies/${SLUG}/accounts`);
    expect(first.body.length).toBeGreaterThan(25);
    expect(first.headers['fiken-api-page-count']).toBe('1');
    const again = await get(`/companies/${SLUG}/accounts`, { page: 1, pageSize: 25 });
    expect(again.body).toEqual(first.body);
  });

  it('serves accounts as string codes, with sub-ledger accounts, filtered by fromAccount/toAccount', async () => {
    const { get } = await setup();
    const all = (await get(`/companies/${SLUG}/accounts`, { page: 0, pageSize: 100 })).body as {
      code: string;
      name: string;
    }[];
    expect(all.map((a) => a.code)).toEqual(
      expect.arrayContaining(['1920:10001', '2400', '2710', '6300', '6540', '6800', '7140', '7350']),
    );
    const range = (await get(`/companies/${SLUG}/accounts`, { fromAccount: 6000, toAccount: 6999, pageSize: 100 }))
      .body as {
      code: string;
    }[];
    expect(range.every((a) => a.code >= '6000' && a.code < '7000')).toBe(true);
  });

  it('requires date on accountBalances and answers integer øre, paged in headers', async () => {
    const { get } = await setup();
    const missing = await get(`/companies/${SLUG}/accountBalances`);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: expect.any(String) });
    const first = await get(`/companies/${SLUG}/accountBalances`, { date: '2026-03-15' });
    expect(first.headers['fiken-api-page-size']).toBe('25');
    const total = Number(first.headers['fiken-api-result-count']);
    expect(total).toBeGreaterThan(25);
    const all = (await get(`/companies/${SLUG}/accountBalances`, { date: '2026-03-15', page: 0, pageSize: 100 }))
      .body as { code: string; balance: number }[];
    expect(all).toHaveLength(total);
    expect(all.every((row) => Number.isInteger(row.balance))).toBe(true);
    expect(all.reduce((sum, row) => sum + row.balance, 0)).toBe(0);
  });

  it('pages journal entries with page/pageSize and totals only in headers', async () => {
    const { get } = await setup({ entriesPerCompany: 1_000 });
    const ids: number[] = [];
    let pageCount = 1;
    for (let page = 0; page < pageCount; page++) {
      const response = await get(`/companies/${SLUG}/journalEntries`, { page, pageSize: 100 });
      expect(Array.isArray(response.body)).toBe(true);
      expect(response.headers['fiken-api-page']).toBe(String(page));
      expect(response.headers['fiken-api-result-count']).toBe('1000');
      pageCount = Number(response.headers['fiken-api-page-count']);
      ids.push(...(response.body as { journalEntryId: number }[]).map((e) => e.journalEntryId));
    }
    expect(pageCount).toBe(10);
    expect(new Set(ids).size).toBe(1_000);
  });

  it('caps pageSize at 100', async () => {
    const { get } = await setup({ entriesPerCompany: 300 });
    const response = await get(`/companies/${SLUG}/journalEntries`, { page: 0, pageSize: 500 });
    expect(response.headers['fiken-api-page-size']).toBe('100');
    expect(response.body).toHaveLength(100);
  });

  it('filters journal entries by dateGe; some have no attachments; lines balance in øre', async () => {
    const { get } = await setup();
    const response = await get(`/companies/${SLUG}/journalEntries`, { dateGe: '2026-01-01', pageSize: 100 });
    const entries = response.body as {
      date: string;
      lines: { amount: number; account: string }[];
      attachments: unknown[];
    }[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.date >= '2026-01-01')).toBe(true);
    expect(entries.some((e) => e.attachments.length === 0)).toBe(true);
    for (const entry of entries) expect(entry.lines.reduce((sum, l) => sum + l.amount, 0)).toBe(0);
  });

  it('lists unsettled invoices due before a date', async () => {
    const { get } = await setup();
    const response = await get(`/companies/${SLUG}/invoices`, {
      dueDateLt: '2026-03-16',
      settled: false,
      pageSize: 100,
    });
    const invoices = response.body as {
      dueDate: string;
      gross: number;
      sale: { settled: boolean; outstandingBalance: number };
      customer: { name: string };
    }[];
    expect(invoices.length).toBeGreaterThan(0);
    for (const invoice of invoices) {
      expect(invoice.dueDate < '2026-03-16').toBe(true);
      expect(invoice.sale.settled).toBe(false);
      expect(invoice.sale.outstandingBalance).toBeGreaterThan(0);
      expect(Number.isInteger(invoice.gross)).toBe(true);
    }
  });

  it('refuses another company with 403 and an unknown one with 404', async () => {
    const { get } = await setup({ companies: 2 });
    expect((await get(`/companies/${fikenCompanySlug(1)}/accounts`)).status).toBe(403);
    expect((await get('/companies/nobody-as/accounts')).status).toBe(404);
  });
});

describe('Fiken sandbox: purchases', () => {
  it('creates a purchase with 201, an empty body and a Location whose last segment is the id', async () => {
    const { post, get, control } = await setup();
    const created = await post(`/companies/${SLUG}/purchases`, purchase());
    expect(created.status).toBe(201);
    expect(created.text).toBe('');
    const location = created.headers.location as string;
    expect(location).toMatch(new RegExp(`/fiken/api/v2/companies/${SLUG}/purchases/\\d+$`));
    const id = location.split('/').pop();
    const fetched = await get(`/companies/${SLUG}/purchases/${id}`);
    expect(fetched.body).toMatchObject({
      purchaseId: Number(id),
      identifier: 'proposal-42',
      kind: 'cash_purchase',
      paid: true,
      lines: [{ netPrice: 1_080_000, vat: 270_000 }],
    });
    expect(control.for('fiken').bookings(SLUG)).toHaveLength(1);
  });

  it('books the purchase into the journal and the balances', async () => {
    const { post, get } = await setup();
    const balance = async (code: string) =>
      (
        (await get(`/companies/${SLUG}/accountBalances`, { date: '2026-03-10', pageSize: 100 })).body as {
          code: string;
          balance: number;
        }[]
      ).find((r) => r.code === code)?.balance ?? 0;
    const bankBefore = await balance('1920:10001');
    const vatBefore = await balance('2710');
    await post(`/companies/${SLUG}/purchases`, purchase());
    expect((await balance('1920:10001')) - bankBefore).toBe(-1_350_000);
    expect((await balance('2710')) - vatBefore).toBe(270_000);
    const entries = (await get(`/companies/${SLUG}/journalEntries`, { date: '2026-03-10', pageSize: 100 })).body as {
      description: string;
      attachments: unknown[];
    }[];
    expect(entries.at(-1)).toMatchObject({ description: 'Kontorstol', attachments: [] });
  });

  it('finds a purchase by identifier by listing purchases by date', async () => {
    const { post, get } = await setup();
    await post(`/companies/${SLUG}/purchases`, purchase({ identifier: 'a' }));
    await post(`/companies/${SLUG}/purchases`, purchase({ identifier: 'b', date: '2026-03-12' }));
    const listed = (await get(`/companies/${SLUG}/purchases`, { dateGe: '2026-03-11' })).body as {
      identifier: string;
    }[];
    // The seeded year of purchases (fiken-history.ts) is listed too: only this test's are compared.
    expect(listed.map((p) => p.identifier).filter((id) => id === 'a' || id === 'b')).toEqual(['b']);
  });

  it.each([
    ['an unknown account', {}, { account: '9999' }, /account/],
    ['an unknown VAT type', {}, { vatType: 'SUPER' }, /vatType/],
    ['VAT that does not match the rate', {}, { vat: 200_000 }, /does not match/],
    ['a gross price field', {}, { grossPrice: 1_350_000 }, /Unrecognized/],
    ['a missing payment account', { paymentAccount: undefined }, {}, /paymentAccount/],
    ['a payment account that is not a bank account', { paymentAccount: '6540' }, {}, /bank account/],
    ['a line description over 200 characters', {}, { description: 'x'.repeat(201) }, /description: size must be/],
    ['a purchase without paid', { paid: undefined }, {}, /paid is required/],
    ['a sales-only VAT type on a purchase', {}, { vatType: 'OUTSIDE', vat: 0 }, /not valid for purchases/],
    ['a line comment (not a property of orderLine)', {}, { comment: 'x' }, /Unrecognized/],
    [
      'a foreign-currency purchase without paymentAmountInNok',
      { currency: 'EUR' },
      { netPrice: undefined, vat: undefined, netPriceInCurrency: 10_000, vatInCurrency: 2_500 },
      /paymentAmountInNok is required/,
    ],
    [
      'a foreign-currency purchase priced only in NOK',
      { currency: 'EUR', paymentAmountInNok: 150_000 },
      {},
      /netPriceInCurrency is required/,
    ],
  ])('refuses %s with 400 and a message', async (_name, extra, line, message) => {
    const { post, control } = await setup();
    const response = await post(`/companies/${SLUG}/purchases`, purchase(extra, line));
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
    expect(control.for('fiken').bookings(SLUG)).toHaveLength(0);
  });

  it('books a foreign-currency purchase at the NOK amount paid', async () => {
    const { post, get, control } = await setup();
    const created = await post(
      `/companies/${SLUG}/purchases`,
      purchase(
        { currency: 'EUR', paymentAmountInNok: 146_250 },
        { netPrice: undefined, vat: undefined, netPriceInCurrency: 10_000, vatInCurrency: 2_500 },
      ),
    );
    expect(created.status).toBe(201);
    const [booked] = control.for('fiken').bookings(SLUG) as {
      journalEntry: { lines: { amount: number; account: string }[] };
    }[];
    expect(booked.journalEntry.lines).toEqual([
      { amount: 117_000, account: '6540', vatCode: '1' },
      { amount: 29_250, account: '2710' },
      { amount: -146_250, account: '1920:10001' },
    ]);
    const id = (created.headers.location as string).split('/').pop();
    expect((await get(`/companies/${SLUG}/purchases/${id}`)).body).toMatchObject({
      currency: 'EUR',
      lines: [{ netPriceInCurrency: 10_000, vatInCurrency: 2_500 }],
    });
  });

  it('lists purchases sorted by date and refuses a sortBy the definition does not declare', async () => {
    const { post, get } = await setup();
    await post(`/companies/${SLUG}/purchases`, purchase({ identifier: 'late', date: '2026-03-12' }));
    await post(`/companies/${SLUG}/purchases`, purchase({ identifier: 'early', date: '2026-03-02' }));
    const ours = (purchases: { identifier: string; date: string }[]) =>
      purchases.map((p) => p.identifier).filter((id) => id === 'early' || id === 'late');
    const ascending = (await get(`/companies/${SLUG}/purchases`, { dateGe: '2026-03-02', pageSize: 100 })).body as {
      identifier: string;
      date: string;
    }[];
    expect(ours(ascending)).toEqual(['early', 'late']);
    expect(ascending.map((p) => p.date)).toEqual([...ascending.map((p) => p.date)].sort());
    const descending = (
      await get(`/companies/${SLUG}/purchases`, { sortBy: 'date desc', dateGe: '2026-03-02', pageSize: 100 })
    ).body as {
      identifier: string;
      date: string;
    }[];
    expect(ours(descending)).toEqual(['late', 'early']);
    const refused = await get(`/companies/${SLUG}/purchases`, { sortBy: 'createdDate desc' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/sortBy/);
  });

  it('refuses an attachment documenting neither the payment nor the sale', async () => {
    const { app, bearer, post, get } = await setup();
    const location = (await post(`/companies/${SLUG}/purchases`, purchase())).headers.location as string;
    const id = location.split('/').pop();
    const upload = (query: Record<string, boolean>) =>
      request(app)
        .post(`/fiken/api/v2/companies/${SLUG}/purchases/${id}/attachments`)
        .query(query)
        .set('Authorization', bearer)
        .field('filename', 'kvittering.pdf')
        .attach('file', SANDBOX_PDF, 'kvittering.pdf');
    const neither = await upload({});
    expect(neither.status).toBe(400);
    expect(neither.body.message).toMatch(/attachToPayment and attachToSale/);
    expect((await upload({ attachToPayment: false, attachToSale: false })).status).toBe(400);
    expect((await upload({ attachToSale: true })).status).toBe(201);
    expect((await get(`/companies/${SLUG}/purchases/${id}`)).body.purchaseAttachments).toHaveLength(1);
  });

  it.each(['kvittering.webp', 'kvittering.heic', 'kvittering.tiff', 'kvittering'])(
    'refuses an attachment named %s (Fiken takes .png, .jpeg, .jpg, .gif and .pdf)',
    async (filename) => {
      const { app, bearer, post } = await setup();
      const location = (await post(`/companies/${SLUG}/purchases`, purchase())).headers.location as string;
      const id = location.split('/').pop();
      const response = await request(app)
        .post(`/fiken/api/v2/companies/${SLUG}/purchases/${id}/attachments`)
        .query({ attachToSale: true })
        .set('Authorization', bearer)
        .field('filename', filename)
        .attach('file', SANDBOX_PDF, filename);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/Unsupported file type/);
    },
  );

  it('attaches a receipt (filename + file) with 201 and a Location ending in a UUID', async () => {
    const { app, bearer, post, get } = await setup();
    const location = (await post(`/companies/${SLUG}/purchases`, purchase())).headers.location as string;
    const id = location.split('/').pop();
    const attach = () =>
      request(app)
        .post(`/fiken/api/v2/companies/${SLUG}/purchases/${id}/attachments`)
        .query({ attachToPayment: true })
        .set('Authorization', bearer);
    const bad = await attach().field('filename', 'note.txt').attach('file', Buffer.from('x'), 'note.txt');
    expect(bad.status).toBe(400);
    const ok = await attach().field('filename', 'kvittering.pdf').attach('file', SANDBOX_PDF, 'kvittering.pdf');
    expect(ok.status).toBe(201);
    expect(ok.headers.location).toMatch(/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((await get(`/companies/${SLUG}/purchases/${id}`)).body.purchaseAttachments).toHaveLength(1);
  });
});

describe('Fiken sandbox: one request at a time', () => {
  it('answers 429 to a request arriving while another of the same client is in flight', async () => {
    const { get } = await setup({ latencyMs: { fiken: 150 } });
    const results = await Promise.all([
      get(`/companies/${SLUG}/accounts`),
      get(`/companies/${SLUG}/accounts`),
      get(`/companies/${SLUG}/accounts`),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 429, 429]);
    const limited = results.filter((r) => r.status === 429);
    expect(limited.some((r) => r.headers['retry-after'] === '1')).toBe(true);
    expect(limited.some((r) => r.headers['retry-after'] === undefined)).toBe(true);
    expect((await get(`/companies/${SLUG}/accounts`)).status).toBe(200);
  });

  it('reports what the rule saw: requests let in, the most in flight at once, the gaps between starts', async () => {
    const { get, control } = await setup({ latencyMs: { fiken: 100 } });
    expect(control.for('fiken').traffic()).toMatchObject({ requests: 0, maxInFlight: 0, minStartGapMs: null });
    await Promise.all([get(`/companies/${SLUG}/accounts`), get(`/companies/${SLUG}/accounts`)]);
    for (let i = 0; i < 10; i++) await get(`/companies/${SLUG}/accounts`);
    const traffic = control.for('fiken').traffic();
    expect(traffic).toMatchObject({ requests: 11, maxInFlight: 2, concurrencyRejections: 1 });
    // One request after the other, each answered after the latency: starts at least that far apart.
    expect(traffic.minStartGapMs).toBeGreaterThanOrEqual(95);
    expect(traffic.minTenGapsMs).toBeGreaterThanOrEqual(950);
    expect((traffic.lastStartMs as number) - (traffic.firstStartMs as number)).toBeGreaterThanOrEqual(950);
    control.reset();
    expect(control.for('fiken').traffic()).toMatchObject({ requests: 0, maxInFlight: 0, minTenGapsMs: null });
  });

  it('counts one application across companies: a second company waits or gets 429 too', async () => {
    const sandbox = testSandbox({ companies: 2, latencyMs: { fiken: 100 } });
    const first = await fikenAuthorize(sandbox.app, fikenCompanySlug(0));
    const second = await fikenAuthorize(sandbox.app, fikenCompanySlug(1));
    const results = await Promise.all([
      request(sandbox.app)
        .get(`/fiken/api/v2/companies/${fikenCompanySlug(0)}/accounts`)
        .set('Authorization', `Bearer ${first.access_token}`),
      request(sandbox.app)
        .get(`/fiken/api/v2/companies/${fikenCompanySlug(1)}/accounts`)
        .set('Authorization', `Bearer ${second.access_token}`),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 429]);
  });
});
