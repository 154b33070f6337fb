import {
  createSandbox,
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_FIKEN_DEMO_SLUG,
  type RunningSandbox,
  type Sandbox,
} from '@app/sandbox';
import { ApiCallLog, Clock, ExpenseBooking, Posting, ProviderError } from '@app/domain';
import { aBooking, checkProviderContract, InMemoryProviderTokenStore } from '@app/testing';
import type { FikenConnection } from './fiken-connection';
import { FikenProvider } from './fiken.provider';

const TODAY = '2026-03-16';
const DUE = '2026-03-30';
const COMPANY = 'demo-fiken';

class FixedClock extends Clock {
  now(): Date {
    return new Date(`${TODAY}T10:00:00Z`);
  }
}

/** What a test asserts of a posting read back: account, øre, VAT code, generated, party. */
type Expected = Pick<Posting, 'accountCode' | 'amount' | 'vatCode' | 'generated'> & {
  party?: Partial<NonNullable<Posting['party']>> | null;
  dueDate?: string;
  invoiceNumber?: string;
};

describe('FikenProvider books real books (each case read back from Fiken’s ledger and balances)', () => {
  checkProviderContract();

  let sandbox: Sandbox;
  let running: RunningSandbox;
  let store: InMemoryProviderTokenStore;
  let conn: FikenConnection;
  let fiken: FikenProvider;
  const clock = new FixedClock();

  beforeAll(async () => {
    sandbox = createSandbox({
      seed: 11,
      ledgerEndDate: TODAY,
      now: () => clock.now(),
      companies: 1,
      entriesPerCompany: 60,
      invoicesPerCompany: 10,
    });
    running = await sandbox.start(0, '127.0.0.1');
  });

  afterAll(async () => {
    await running.close();
  });

  beforeEach(async () => {
    sandbox.control.reset();
    store = new InMemoryProviderTokenStore();
    conn = {
      provider: 'fiken',
      companyId: COMPANY,
      baseUrl: running.fikenApi,
      tokenUrl: `${running.fikenOAuth}/token`,
      companySlug: SANDBOX_FIKEN_DEMO_SLUG,
    };
    const issued = sandbox.control.for('fiken').issueTokens(SANDBOX_FIKEN_DEMO_SLUG);
    await store.save(COMPANY, 'fiken', {
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      expiresAt: clock.now().getTime() + issued.expires_in * 1000,
    });
    fiken = new FikenProvider(
      {
        clientId: SANDBOX_FIKEN_CLIENT_ID,
        clientSecret: SANDBOX_FIKEN_CLIENT_SECRET,
        settleBeforeLookupMs: 10,
        // The pace between request starts is request-turns.spec's and the e2e's subject.
        requestPaceMs: 0,
        pageSize: 100,
        resilience: { timeoutMs: 2_000, retries: 1, initialBackoffMs: 5, maxBackoffMs: 20, breakerThreshold: 1_000 },
      },
      store,
      clock,
    );
  });

  const purchases = () => sandbox.control.for('fiken').bookings(SANDBOX_FIKEN_DEMO_SLUG);

  function booking(overrides: Partial<ExpenseBooking> = {}): ExpenseBooking {
    return aBooking({
      reference: `0190f1b2-7c3d-7e4f-8a9b-${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`,
      date: TODAY,
      description: null,
      merchant: 'Clas Ohlson',
      accountCode: '6540',
      vatRate: '25',
      grossAmount: 12_500,
      currency: 'NOK',
      amountNok: null,
      paymentAccount: '1920',
      ...overrides,
    });
  }

  async function balances(): Promise<Map<string, number>> {
    return new Map((await fiken.balances(conn, TODAY)).map((b) => [b.code, b.balance]));
  }

  /**
   * Books `b`, reads its postings back (GET purchase + its transaction) and checks them against
   * `expected`, then checks that the account balances moved by exactly those postings.
   */
  async function bookAndReadBack(b: ExpenseBooking, expected: Expected[]): Promise<Posting[]> {
    const before = await balances();
    const { bookingId } = await fiken.bookExpense(conn, b);
    const postings = await fiken.bookedPostings(conn, bookingId);
    expect(postings).toHaveLength(expected.length);
    expected.forEach((want, i) => {
      const { party, ...fields } = want;
      expect(postings[i]).toMatchObject(fields);
      if (party === null || party === undefined) expect(postings[i].party).toBeNull();
      else expect(postings[i].party).toMatchObject(party);
    });
    expect(postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);
    const after = await balances();
    const moved = new Map<string, number>();
    for (const p of postings) moved.set(p.accountCode, (moved.get(p.accountCode) ?? 0) + p.amount);
    for (const [code, amount] of moved) {
      expect({ code, moved: (after.get(code) ?? 0) - (before.get(code) ?? 0) }).toEqual({ code, moved: amount });
    }
    return postings;
  }

  it('NOK 25 % paid with the company card: expense net with code 1, VAT on 2710, the card (credit card bank account) credited', async () => {
    await bookAndReadBack(booking({ paidWith: 'company_card', paymentAccount: '1920' }), [
      { accountCode: '6540', amount: 10_000, vatCode: '1', generated: false },
      { accountCode: '2710', amount: 2_500, vatCode: null, generated: true },
      { accountCode: '1920:10002', amount: -12_500, vatCode: null, generated: false },
    ]);
    expect(purchases()[0]).toMatchObject({ kind: 'cash_purchase', paid: true, paymentAccount: '1920:10002' });
  });

  it('15 % food paid by an employee: a debt to the employee on 2910, the employee named on it', async () => {
    await bookAndReadBack(
      booking({
        merchant: 'Rema 1000',
        accountCode: '5915',
        vatRate: '15',
        grossAmount: 34_500,
        paidWith: 'employee',
        paymentAccount: '2910',
        employee: { providerId: null, name: 'Kari Nordmann', email: 'kari@example.no' },
      }),
      [
        { accountCode: '5915', amount: 30_000, vatCode: '11', generated: false },
        { accountCode: '2710', amount: 4_500, vatCode: null, generated: true },
        {
          accountCode: '2910',
          amount: -34_500,
          vatCode: null,
          generated: false,
          party: { kind: 'employee', name: 'Kari Nordmann' },
        },
      ],
    );
  });

  it('12 % transport from the bank: code 13, the bank account (not the card) credited', async () => {
    await bookAndReadBack(booking({ merchant: 'Vy', accountCode: '7140', vatRate: '12', grossAmount: 56_000 }), [
      { accountCode: '7140', amount: 50_000, vatCode: '13', generated: false },
      { accountCode: '2710', amount: 6_000, vatCode: null, generated: true },
      { accountCode: '1920:10001', amount: -56_000, vatCode: null, generated: false },
    ]);
  });

  it('0 % exempt: the gross on the expense with code 0, no VAT posting', async () => {
    await bookAndReadBack(
      booking({ merchant: 'Kontorleie Eiendom AS', accountCode: '6300', vatRate: '0', grossAmount: 800_000 }),
      [
        { accountCode: '6300', amount: 800_000, vatCode: '0', generated: false },
        { accountCode: '1920:10001', amount: -800_000, vatCode: null, generated: false },
      ],
    );
  });

  it('a grocery receipt split 15 % + 25 %: each line its account and VAT code, one credit for the total', async () => {
    const b = booking({
      merchant: 'Meny',
      accountCode: '5915',
      vatRate: '15',
      grossAmount: 35_500,
      lines: [
        {
          accountCode: '5915',
          vatRate: '15',
          vatCode: '11',
          grossAmount: 23_000,
          grossAmountNok: 23_000,
          description: 'Mat',
        },
        {
          accountCode: '6800',
          vatRate: '25',
          vatCode: '1',
          grossAmount: 12_500,
          grossAmountNok: 12_500,
          description: 'Papir',
        },
      ],
    });
    const postings = await bookAndReadBack(b, [
      { accountCode: '5915', amount: 20_000, vatCode: '11', generated: false },
      { accountCode: '2710', amount: 3_000, vatCode: null, generated: true },
      { accountCode: '6800', amount: 10_000, vatCode: '1', generated: false },
      { accountCode: '2710', amount: 2_500, vatCode: null, generated: true },
      { accountCode: '1920:10001', amount: -35_500, vatCode: null, generated: false },
    ]);
    expect(postings[0].description).toBe('Meny: Mat');
    expect(postings[2].description).toBe('Meny: Papir');
  });

  it('a supplier invoice NOK 25 %, unpaid: the supplier contact created, 2400 sub-ledger credited with invoice number and due date', async () => {
    const b = booking({
      kind: 'supplier_invoice',
      paidWith: null,
      merchant: 'Nordlys Strøm AS',
      accountCode: '6340',
      grossAmount: 250_000,
      paymentAccount: '2400',
      supplier: { name: 'Nordlys Strøm AS', organizationNumber: '923609016', bankAccount: null, kid: '20261180044' },
      invoiceNumber: 'F-2026-118',
      dueDate: DUE,
    });
    const log = new ApiCallLog();
    const before = await balances();
    const { bookingId } = await fiken.bookExpense(conn, b, { recorder: log });
    expect(log.calls.map((c) => `${c.method} ${c.path.replace(/^\/companies\/[^/]+/, '')}`)).toEqual([
      'GET /contacts',
      'POST /contacts',
      'POST /purchases',
    ]);
    const postings = await fiken.bookedPostings(conn, bookingId);
    const payable = postings.find((p) => p.accountCode.startsWith('2400:'));
    expect(postings.map((p) => [p.accountCode.split(':')[0], p.amount, p.vatCode, p.generated])).toEqual([
      ['6340', 200_000, '1', false],
      ['2710', 50_000, null, true],
      ['2400', -250_000, null, false],
    ]);
    expect(payable).toMatchObject({
      party: { kind: 'supplier', name: 'Nordlys Strøm AS', organizationNumber: '923609016' },
      invoiceNumber: 'F-2026-118',
      dueDate: DUE,
    });
    // purchaseResult.kid is writeOnly in Fiken's definition: the KID is written, never read back.
    expect(payable).not.toHaveProperty('kid');
    const after = await balances();
    expect((after.get(payable!.accountCode) ?? 0) - (before.get(payable!.accountCode) ?? 0)).toBe(-250_000);
    expect((after.get('1920:10001') ?? 0) - (before.get('1920:10001') ?? 0)).toBe(0);
    expect(purchases()[0]).toMatchObject({
      kind: 'supplier',
      paid: false,
      identifier: 'F-2026-118',
      dueDate: DUE,
      kid: '20261180044',
    });

    // The next invoice of the same supplier finds the contact by organisation number.
    const again = new ApiCallLog();
    await fiken.bookExpense(
      conn,
      { ...b, reference: `${b.reference}-2`, invoiceNumber: 'F-2026-131' },
      {
        recorder: again,
      },
    );
    expect(again.calls.filter((c) => c.method === 'POST').map((c) => c.path.split('/').pop())).toEqual(['purchases']);
    expect(purchases()[1].supplierId).toBe(purchases()[0].supplierId);

    // And the booking is found again by our reference although its identifier is the invoice number.
    await expect(fiken.findBookingByReference(conn, b.reference, TODAY)).resolves.toEqual({
      bookingId,
      hasAttachment: false,
    });
  });

  it('a supplier invoice from a seeded supplier uses its contact and sub-ledger', async () => {
    const context = await fiken.fetchContext(conn);
    const subLedger = context.accounts.find((a) => a.code.startsWith('2400:'));
    expect(subLedger?.rules?.ledgerType).toBe('supplier');
    const log = new ApiCallLog();
    const contacts = await fetch(`${running.fikenApi}/companies/${SANDBOX_FIKEN_DEMO_SLUG}/contacts?supplier=true`, {
      headers: { authorization: `Bearer ${(await store.current(COMPANY, 'fiken'))!.accessToken}` },
    }).then(
      (r) => r.json() as Promise<Array<{ name: string; organizationNumber: string; supplierAccountCode: string }>>,
    );
    const seeded = contacts.find((c) => c.supplierAccountCode === subLedger!.code)!;
    const { bookingId } = await fiken.bookExpense(
      conn,
      booking({
        kind: 'supplier_invoice',
        paidWith: null,
        paymentAccount: '2400',
        supplier: { name: seeded.name, organizationNumber: seeded.organizationNumber, bankAccount: null, kid: null },
        invoiceNumber: '77',
        dueDate: DUE,
      }),
      { recorder: log },
    );
    expect(log.calls.some((c) => c.method === 'POST' && c.path.endsWith('/contacts'))).toBe(false);
    const postings = await fiken.bookedPostings(conn, bookingId);
    expect(postings.at(-1)).toMatchObject({ accountCode: seeded.supplierAccountCode, amount: -12_500 });
  });

  it('a USD SaaS subscription with reverse charge 25 %: code 86, VAT computed on the NOK amount on 2710 and 2700', async () => {
    await bookAndReadBack(
      booking({
        merchant: 'Figma',
        accountCode: '6800',
        vatRate: '25',
        grossAmount: 2_000,
        currency: 'USD',
        amountNok: 21_400,
        vatTreatment: 'reverse_charge',
        paidWith: 'company_card',
      }),
      [
        { accountCode: '6800', amount: 21_400, vatCode: '86', generated: false },
        { accountCode: '2710', amount: 5_350, vatCode: null, generated: true },
        { accountCode: '2700', amount: -5_350, vatCode: null, generated: true },
        { accountCode: '1920:10002', amount: -21_400, vatCode: null, generated: false },
      ],
    );
    expect(purchases()[0].lines[0]).toMatchObject({ vatType: 'HIGH_FOREIGN_SERVICE_DEDUCTIBLE', vat: 0 });
  });

  it('a EUR hotel abroad, VAT paid there not deducted: the NOK amount on the expense with code 0, no VAT posting', async () => {
    await bookAndReadBack(
      booking({
        merchant: 'Hotel Adlon',
        accountCode: '7140',
        vatRate: '7',
        grossAmount: 15_000,
        currency: 'EUR',
        amountNok: 175_050,
        vatTreatment: 'foreign_no_deduction',
      }),
      [
        { accountCode: '7140', amount: 175_050, vatCode: '0', generated: false },
        { accountCode: '1920:10001', amount: -175_050, vatCode: null, generated: false },
      ],
    );
  });

  describe('the payment account is a real account of the chart', () => {
    it('uses a configured sub-ledger as it is', async () => {
      await fiken.bookExpense(conn, booking({ paymentAccount: '1920:10002' }));
      expect(purchases()[0].paymentAccount).toBe('1920:10002');
    });

    it('refuses a sub-ledger the chart lacks, before anything is booked', async () => {
      const error = await fiken.bookExpense(conn, booking({ paymentAccount: '1920:10009' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'unknown_account_code' });
      expect((error as Error).message).toContain('1920:10009');
      expect(purchases()).toHaveLength(0);
    });

    it('refuses an account number the chart lacks', async () => {
      await expect(fiken.bookExpense(conn, booking({ paymentAccount: '1930' }))).rejects.toMatchObject({
        code: 'unknown_account_code',
      });
      expect(purchases()).toHaveLength(0);
    });

    it('refuses a number with several sub-ledgers when none is the one for how it was paid', async () => {
      // 1920 has several sub-ledgers and an employee outlay cannot pick a bank account among them.
      const error = await fiken
        .bookExpense(
          conn,
          booking({
            paidWith: 'employee',
            paymentAccount: '1920',
            employee: { providerId: null, name: 'Ola Nordmann', email: 'ola@example.no' },
          }),
        )
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'unknown_account_code' });
      expect((error as Error).message).toMatch(/1920:10001.*1920:10002/);
      expect(purchases()).toHaveLength(0);
    });

    it('Fiken refuses a closed (inactive) bank account', async () => {
      await expect(fiken.bookExpense(conn, booking({ paymentAccount: '1920:10003' }))).rejects.toMatchObject({
        code: 'provider_error',
        status: 400,
      });
      expect(purchases()).toHaveLength(0);
    });
  });

  it('context: sub-ledger accounts listed, the closed bank account flagged inactive, VAT types with their standard codes', async () => {
    const context = await fiken.fetchContext(conn);
    const byCode = new Map(context.accounts.map((a) => [a.code, a]));
    expect(byCode.get('1920:10001')?.rules).toMatchObject({ inactive: false, ledgerType: 'general' });
    expect(byCode.get('1920:10002')).toMatchObject({ name: 'Firmakort', rules: { inactive: false } });
    expect(byCode.get('1920:10003')?.rules?.inactive).toBe(true);
    expect(byCode.get('2910')).toMatchObject({ name: 'Gjeld til ansatte og eiere', rules: { inactive: false } });
    expect(byCode.has('1920')).toBe(false);
    expect(context.vatTypes.map((v) => `${v.code}=${v.standardCode}`)).toEqual(
      expect.arrayContaining([
        'HIGH=1',
        'MEDIUM=11',
        'RAW_FISH=12',
        'LOW=13',
        'NONE=0',
        'HIGH_FOREIGN_SERVICE_DEDUCTIBLE=86',
        'LOW_FOREIGN_SERVICE_DEDUCTIBLE=88',
      ]),
    );
  });

  it('flags a deactivated supplier’s sub-ledger inactive, and does not book on it or create the supplier again', async () => {
    const context = await fiken.fetchContext(conn);
    const inactive = context.accounts.filter((a) => a.rules?.inactive);
    const supplierLedger = inactive.find((a) => a.code.startsWith('2400:'));
    expect(supplierLedger).toBeDefined();
    const contacts = await fetch(
      `${running.fikenApi}/companies/${SANDBOX_FIKEN_DEMO_SLUG}/contacts?supplier=true&inactive=true`,
      { headers: { authorization: `Bearer ${(await store.current(COMPANY, 'fiken'))!.accessToken}` } },
    ).then(
      (r) => r.json() as Promise<Array<{ name: string; organizationNumber: string; supplierAccountCode: string }>>,
    );
    expect(contacts.map((c) => c.supplierAccountCode)).toEqual([supplierLedger!.code]);
    const log = new ApiCallLog();
    const error = await fiken
      .bookExpense(
        conn,
        booking({
          kind: 'supplier_invoice',
          paidWith: null,
          paymentAccount: '2400',
          supplier: {
            name: contacts[0].name,
            organizationNumber: contacts[0].organizationNumber,
            bankAccount: null,
            kid: null,
          },
          invoiceNumber: '12',
          dueDate: DUE,
        }),
        { recorder: log },
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'provider_error' });
    expect((error as Error).message).toContain('deactivated');
    expect(log.calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(purchases()).toHaveLength(0);
  });

  it('refuses a line whose rate has no code under its treatment (reverse charge at 15 %) before anything is sent', async () => {
    const b = booking({ vatRate: '15', currency: 'USD', amountNok: 10_000, vatTreatment: 'reverse_charge' });
    expect(b.lines[0].vatCode).toBeNull();
    await expect(fiken.bookExpense(conn, b)).rejects.toMatchObject({ code: 'unknown_vat_rate' });
    expect(purchases()).toHaveLength(0);
  });
});
