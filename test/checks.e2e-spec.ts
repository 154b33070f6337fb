import { ledgerEntry } from '../apps/provider-sandbox/src/seed/ledger';
import { TRIPLETEX_STREAM } from '../apps/provider-sandbox/src/tripletex/tripletex-company';
import { FIKEN_STREAM } from '../apps/provider-sandbox/src/fiken/fiken-company';
import { hostSandbox, MANAGER, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';

const SEED = 21;
const ENTRIES = 2_500;
const DAYS = 365;

interface Report {
  provider: string;
  count: number;
  truncated: boolean;
  items: Record<string, unknown>[];
  totalOutstanding?: { currency: string; amount: string }[];
}

describe('the checks over seeded sandbox ledgers (GET /v1/check/*)', () => {
  let hosted: HostedSandbox;
  let t: JobsApp;
  let tripletex: string;
  let fiken: string;
  let bare: string;

  beforeAll(async () => {
    hosted = await hostSandbox({
      seed: SEED,
      companies: 2,
      entriesPerCompany: ENTRIES,
      invoicesPerCompany: 400,
      ledgerDays: DAYS,
    });
    t = await startJobsApp({ hosted });
    tripletex = await t.newCompany('chk-tx');
    fiken = await t.newCompany('chk-fk');
    bare = await t.newCompany('chk-none');
    await t.connect(tripletex, 'tripletex', 1);
    await t.connect(fiken, 'fiken', 1);
  });

  afterAll(async () => {
    await t?.close();
    await hosted?.close();
  });

  const get = (company: string, path: string) =>
    t.http.get(path).set('Authorization', `Bearer ${t.token(company, MANAGER)}`);

  /**
   * The voucher kinds that need no receipt, as the sandbox's generator writes them: cash sales
   * (documented by the sales invoice), salary payments (by the payroll run) and the opening balance.
   * Every other seeded entry is a purchase or an expense.
   */
  const NO_RECEIPT_NEEDED = [/^Kontantsalg /, /^Lønnsutbetaling$/, /^Inngående balanse$/];

  /** The seeded purchases and expenses without an attachment dated from `from` on, straight from the sandbox's generator. */
  function expectedMissing(stream: number, from: string): string[] {
    return seededWithoutReceipt(stream, from)
      .filter((entry) => !NO_RECEIPT_NEEDED.some((kind) => kind.test(entry.description)))
      .map((entry) => entry.date);
  }

  function seededWithoutReceipt(stream: number, from: string): { date: string; description: string }[] {
    const endDate = hosted.sandbox.options.ledgerEndDate;
    const shape = { seed: SEED, stream, company: 1, count: ENTRIES, endDate, days: DAYS };
    const entries: { date: string; description: string }[] = [];
    for (let i = 0; i < ENTRIES; i++) {
      const entry = ledgerEntry(shape, i);
      if (entry.date >= from && !entry.hasAttachment) entries.push(entry);
    }
    return entries;
  }

  it.each([
    ['tripletex', TRIPLETEX_STREAM],
    ['fiken', FIKEN_STREAM],
  ] as const)(
    'lists every %s purchase and expense without a receipt across every page, and no sale, salary or opening balance',
    async (provider, stream) => {
      const company = provider === 'tripletex' ? tripletex : fiken;
      const from = new Date(Date.now() - (DAYS + 5) * 86_400_000).toISOString().slice(0, 10);
      const before = hosted.sandbox.control.calls({ provider }).length;
      const res = await get(company, `/v1/check/missing-receipts?from=${from}&limit=5000`);
      expect(res.status).toBe(200);
      const body = res.body as Report;
      const expected = expectedMissing(stream, from);
      expect(expected.length).toBeGreaterThan(100);
      // Sales and salary payments without an attachment exist in the seeded year, and are left out.
      const leftOut = seededWithoutReceipt(stream, from).filter((entry) =>
        NO_RECEIPT_NEEDED.some((kind) => kind.test(entry.description)),
      );
      expect(leftOut.some((entry) => entry.description.startsWith('Kontantsalg'))).toBe(true);
      expect(leftOut.some((entry) => entry.description === 'Lønnsutbetaling')).toBe(true);
      expect(body).toMatchObject({ provider, from, count: expected.length, truncated: false });
      expect(body.items.map((item) => item.date).sort()).toEqual([...expected].sort());
      expect(
        body.items.filter((item) => NO_RECEIPT_NEEDED.some((kind) => kind.test(String(item.description)))),
      ).toEqual([]);
      for (const item of body.items) {
        expect(Object.keys(item).sort()).toEqual(['amount', 'currency', 'date', 'description', 'id', 'number']);
        expect(item.amount).toMatch(/^\d+\.\d{2}$/);
      }
      const pages = hosted.sandbox.control
        .calls({ provider })
        .slice(before)
        .filter((call) => /voucher|journalEntries/.test(call.path)).length;
      expect(pages).toBeGreaterThan(provider === 'fiken' ? 20 : 2);
    },
  );

  it('keeps at most `limit` items but counts them all, and says it truncated', async () => {
    const from = new Date(Date.now() - 200 * 86_400_000).toISOString().slice(0, 10);
    const all = (await get(fiken, `/v1/check/missing-receipts?from=${from}&limit=5000`)).body as Report;
    const capped = (await get(fiken, `/v1/check/missing-receipts?from=${from}&limit=10`)).body as Report;
    expect(capped.count).toBe(all.count);
    expect(capped.items).toEqual(all.items.slice(0, 10));
    expect(capped.truncated).toBe(true);
  });

  it('defaults the window to the last 30 days', async () => {
    const res = await get(tripletex, '/v1/check/missing-receipts');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
    expect(res.body).toMatchObject({ from, to: today });
  });

  it.each(['tripletex', 'fiken'] as const)(
    'lists %s invoices past due with an amount outstanding and the days overdue',
    async (provider) => {
      const company = provider === 'tripletex' ? tripletex : fiken;
      const asOf = new Date().toISOString().slice(0, 10);
      const res = await get(company, `/v1/check/overdue-invoices?asOf=${asOf}&limit=5000`);
      expect(res.status).toBe(200);
      const body = res.body as Report;
      expect(body).toMatchObject({ provider, asOf, truncated: false });
      expect(body.count).toBeGreaterThan(0);
      expect(body.items).toHaveLength(body.count);
      const totals = new Map<string, number>();
      for (const item of body.items) {
        expect(Object.keys(item).sort()).toEqual([
          'amount',
          'currency',
          'customerName',
          'daysOverdue',
          'dueDate',
          'id',
          'issueDate',
          'number',
          'outstanding',
        ]);
        expect((item.dueDate as string) < asOf).toBe(true);
        expect(item.daysOverdue).toBe(
          Math.round(
            (Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${item.dueDate as string}T00:00:00Z`)) / 86_400_000,
          ),
        );
        expect(Number(item.outstanding)).toBeGreaterThan(0);
        expect(item.outstanding).toMatch(/^\d+\.\d{2}$/);
        const currency = item.currency as string;
        totals.set(currency, (totals.get(currency) ?? 0) + Math.round(Number(item.outstanding) * 100));
      }
      // The sandboxes invoice in euro too: every currency is totalled on its own, never added to NOK.
      expect([...totals.keys()].sort()).toEqual(['EUR', 'NOK']);
      expect(body.totalOutstanding).toEqual(
        expect.arrayContaining(
          [...totals].map(([currency, total]) => ({ currency, amount: (total / 100).toFixed(2) })),
        ),
      );
      expect(body.totalOutstanding).toHaveLength(totals.size);
    },
  );

  it('stores no event and calls for the monitor permission', async () => {
    const [before] = await t.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE company_id = $1', [fiken]);
    await get(fiken, '/v1/check/overdue-invoices');
    const [after] = await t.query<{ n: string }>('SELECT count(*) AS n FROM events WHERE company_id = $1', [fiken]);
    expect(after.n).toBe(before.n);
    const employee = await t.http
      .get('/v1/check/overdue-invoices')
      .set('Authorization', `Bearer ${t.token(fiken, { role: 'employee', permissions: ['solve', 'query', 'facts'] })}`);
    expect(employee.status).toBe(403);
  });

  it('answers 409 provider_not_connected without a connection, 400 on a bad date', async () => {
    const none = await get(bare, '/v1/check/missing-receipts');
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 409, code: 'provider_not_connected' });
    const bad = await get(tripletex, '/v1/check/overdue-invoices?asOf=2026-02-30');
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('maps a provider outage to 503 provider_unavailable', async () => {
    const fault = hosted.sandbox.control.addFault({ provider: 'tripletex', errorRate: 1, errorStatus: 502 });
    try {
      const res = await get(tripletex, '/v1/check/overdue-invoices');
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'provider_unavailable' });
    } finally {
      hosted.sandbox.control.removeFault(fault.id);
    }
  });

  describe('the balance query means the same on both providers', () => {
    /**
     * From the sandbox's seeded ledger of the company: per account number, balance-sheet accounts
     * (1xxx–2xxx) summed over every entry up to the date, result accounts (3xxx–8xxx) over the entries
     * of the date's year only.
     */
    function expectedBalances(stream: number, date: string): Map<string, number> {
      const endDate = hosted.sandbox.options.ledgerEndDate;
      const shape = { seed: SEED, stream, company: 1, count: ENTRIES, endDate, days: DAYS };
      const yearStart = `${date.slice(0, 4)}-01-01`;
      const sums = new Map<string, number>();
      for (let i = 0; i < ENTRIES; i++) {
        const entry = ledgerEntry(shape, i);
        if (entry.date > date) continue;
        for (const line of entry.lines) {
          const result = line.account >= 3000 && line.account < 9000;
          if (result && entry.date < yearStart) continue;
          const code = String(line.account);
          sums.set(code, (sums.get(code) ?? 0) + line.amount);
        }
      }
      return new Map([...sums].filter(([, sum]) => sum !== 0));
    }

    it.each([
      ['tripletex', TRIPLETEX_STREAM],
      ['fiken', FIKEN_STREAM],
    ] as const)(
      '%s: balance-sheet accounts at the date, result accounts for the year up to the date',
      async (provider, stream) => {
        const company = provider === 'tripletex' ? tripletex : fiken;
        const date = hosted.sandbox.options.ledgerEndDate;
        const expected = expectedBalances(stream, date);
        // The seeded year spans two calendar years: last year's costs must not be counted.
        const lastYear = expectedBalances(stream, `${Number(date.slice(0, 4)) - 1}-12-31`);
        expect([...lastYear.keys()].some((code) => Number(code) >= 3000 && Number(code) < 9000)).toBe(true);

        const res = await get(company, `/v1/${provider}/balance?date=${date}`);
        expect(res.status).toBe(200);
        const got = new Map<string, number>();
        for (const account of res.body.accounts as { code: string; balance: string }[]) {
          const code = account.code.split(':')[0];
          got.set(code, (got.get(code) ?? 0) + Math.round(Number(account.balance) * 100));
          expect(account.balance).not.toBe('0.00');
        }
        expect(Object.fromEntries([...got].filter(([, sum]) => sum !== 0))).toEqual(Object.fromEntries(expected));
      },
    );

    it('lists the accounts without a balance at 0.00 when asked', async () => {
      const date = hosted.sandbox.options.ledgerEndDate;
      const moved = (await get(tripletex, `/v1/tripletex/balance?date=${date}`)).body.accounts as { code: string }[];
      const all = (await get(tripletex, `/v1/tripletex/balance?date=${date}&includeUnmoved=true`)).body.accounts as {
        code: string;
        balance: string;
      }[];
      expect(all.length).toBeGreaterThan(moved.length);
      expect(all.filter((a) => a.balance === '0.00').length).toBe(all.length - moved.length);
      expect((await get(tripletex, `/v1/tripletex/balance?includeUnmoved=maybe`)).status).toBe(400);
    });
  });
});
