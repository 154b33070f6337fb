import { ProposalExecutor } from '@app/application';
import { EmployeeMappingRepository } from '@app/domain';
import {
  ACCOUNTANT,
  SANDBOX_COMPANY_CARD,
  hostSandbox,
  readyForBookings,
  startJobsApp,
  type HostedSandbox,
  type JobsApp,
} from './support/jobs-app';
import { ManualClock } from './support/manual-clock';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';

/**
 * The cases of docs/bookkeeping.md, on both providers: each is submitted over HTTP, its planned
 * postings read from GET /v1/proposals/{id}, approved, executed on the provider's sandbox, and its
 * books read back — the proposal's read-back postings are the provider's own ledger (the executor
 * reads them through the provider's read operations) and must agree with the plan.
 */
const PROVIDERS = ['tripletex', 'fiken'] as const;
const TODAY = '2026-11-28';
const YESTERDAY = '2026-11-27';

/** [account, amount, VAT code] of each posting, as GET /v1/proposals/{id} shows them. */
type Row = [string, string, string | null];

interface BookedCase {
  readonly name: string;
  readonly body: Record<string, unknown>;
  /** The planned postings (credit account: the company's for how it was paid). */
  readonly postings: Row[];
  /** What the credit posting carries besides its amount. */
  readonly credit?: Record<string, unknown>;
}

interface RefusedCase {
  readonly name: string;
  readonly body: Record<string, unknown>;
  readonly status: number;
  readonly code: string;
  /** The providers whose charts have the rule (Fiken's accounts have no VAT lock or department). */
  readonly providers: readonly (typeof PROVIDERS)[number][];
  /** The company's payment accounts for the case, where they are not the usual ones. */
  readonly paymentAccounts?: Record<string, string>;
  /** What the refusal names. */
  readonly detail?: string;
}

/** The company card's account, which each provider's sandbox seeds its own way (SANDBOX_COMPANY_CARD). */
const CARD = 'company card';
/** The VAT postings the provider generates from a line's VAT code, which it may label with another code or none. */
const GENERATED = new Set(['2710', '2700']);

const base = { kind: 'expense', currency: 'NOK', date: YESTERDAY };
const SUPPLIER_INVOICE = {
  kind: 'supplier_invoice',
  merchant: 'Kontorrekvisita AS',
  amount: '10000.00',
  currency: 'NOK',
  date: YESTERDAY,
  accountCode: '6800',
  vatRate: '25',
  supplier: {
    name: 'Kontorrekvisita AS',
    organizationNumber: '923609016',
    bankAccount: '12345678903',
    kid: '12345674',
  },
  invoiceNumber: 'F-1001',
  dueDate: '2026-12-11',
};

const BOOKED: readonly BookedCase[] = [
  {
    name: 'card',
    body: {
      ...base,
      merchant: 'Clas Ohlson',
      amount: '1250.00',
      accountCode: '6800',
      vatRate: '25',
      paidWith: 'company_card',
    },
    postings: [
      ['6800', '1000.00', '1'],
      ['2710', '250.00', '1'],
      [CARD, '-1250.00', null],
    ],
  },
  {
    name: 'employee',
    body: { ...base, merchant: 'Meny', amount: '345.00', accountCode: '5915', vatRate: '15', paidWith: 'employee' },
    postings: [
      ['5915', '300.00', '11'],
      ['2710', '45.00', '11'],
      ['2910', '-345.00', null],
    ],
    credit: { party: expect.objectContaining({ kind: 'employee' }) },
  },
  {
    name: 'transport',
    body: { ...base, merchant: 'Vy', amount: '560.00', accountCode: '7140', vatRate: '12' },
    postings: [
      ['7140', '500.00', '13'],
      ['2710', '60.00', '13'],
      ['1920', '-560.00', null],
    ],
  },
  {
    name: 'exempt',
    body: { ...base, merchant: 'DNB Bank', amount: '75.00', accountCode: '7770', vatRate: '0' },
    postings: [
      ['7770', '75.00', '0'],
      ['1920', '-75.00', null],
    ],
  },
  {
    name: 'split',
    body: {
      ...base,
      merchant: 'Rema 1000',
      amount: '355.00',
      lines: [
        { accountCode: '5915', vatRate: '15', amount: '230.00', description: 'food' },
        { accountCode: '6800', vatRate: '25', amount: '125.00', description: 'other goods' },
      ],
    },
    postings: [
      ['5915', '200.00', '11'],
      ['2710', '30.00', '11'],
      ['6800', '100.00', '1'],
      ['2710', '25.00', '1'],
      ['1920', '-355.00', null],
    ],
  },
  {
    name: 'supplier invoice',
    body: SUPPLIER_INVOICE,
    postings: [
      ['6800', '8000.00', '1'],
      ['2710', '2000.00', '1'],
      ['2400', '-10000.00', null],
    ],
    credit: {
      party: expect.objectContaining({ kind: 'supplier', organizationNumber: '923609016' }),
      invoiceNumber: 'F-1001',
      dueDate: '2026-12-11',
      kid: '12345674',
    },
  },
  {
    name: 'reverse charge',
    body: {
      ...base,
      merchant: 'Figma Inc',
      amount: '100.00',
      currency: 'USD',
      amountNok: '1100.00',
      accountCode: '6800',
      vatRate: '25',
      vatTreatment: 'reverse_charge',
    },
    postings: [
      ['6800', '1100.00', '86'],
      ['2710', '275.00', '86'],
      ['2700', '-275.00', '86'],
      ['1920', '-1100.00', null],
    ],
  },
  {
    name: 'hotel abroad',
    body: {
      ...base,
      merchant: 'Hotel Adlon Berlin',
      amount: '150.00',
      currency: 'EUR',
      amountNok: '1750.00',
      accountCode: '7140',
      vatRate: '7',
      vatTreatment: 'foreign_no_deduction',
    },
    postings: [
      ['7140', '1750.00', '0'],
      ['1920', '-1750.00', null],
    ],
  },
];

const REFUSED: readonly RefusedCase[] = [
  {
    name: 'VAT-locked account',
    body: { ...base, merchant: 'Husleie AS', amount: '1250.00', accountCode: '6300', vatRate: '25' },
    status: 422,
    code: 'account_rule_violated',
    providers: ['tripletex'],
  },
  {
    name: 'missing department',
    body: { ...base, merchant: 'Reisebyrå AS', amount: '500.00', accountCode: '7320', vatRate: '25' },
    status: 422,
    code: 'department_required',
    providers: ['tripletex'],
  },
  {
    // Fiken's chart has no account rules of its own; a bank account closed in Fiken (GET
    // /bankAccounts: `inactive`) keeps its sub-ledger in the chart but takes no payments.
    name: 'company card on a closed bank account',
    body: {
      ...base,
      merchant: 'Clas Ohlson',
      amount: '1250.00',
      accountCode: '6800',
      vatRate: '25',
      paidWith: 'company_card',
    },
    status: 422,
    code: 'account_rule_violated',
    providers: ['fiken'],
    paymentAccounts: { company_card: '1920:10003' },
    detail: 'account 1920:10003 is inactive',
  },
];

const rowsOf = (postings: { accountCode: string; amount: string; vatCode: string | null }[]): Row[] =>
  postings.map((p) => [p.accountCode, p.amount, p.vatCode]);

describe('the books each case makes, on both providers (docs/bookkeeping.md)', () => {
  let hosted: HostedSandbox;
  let t: JobsApp;
  let executor: ProposalExecutor;
  let database: IsolatedTestDatabase;

  beforeAll(async () => {
    // The sandbox runs on the service's clock: a Tripletex session ends at Oslo midnight of the date
    // the adapter asks for, so a sandbox on real time would end it before it began once the real
    // date has passed TODAY.
    const clock = new ManualClock(new Date(`${TODAY}T10:00:00.000Z`));
    hosted = await hostSandbox({
      seed: 28,
      companies: 2,
      entriesPerCompany: 10,
      invoicesPerCompany: 2,
      now: () => clock.now(),
    });
    database = await isolatedTestDatabase('books');
    t = await startJobsApp({ hosted, clock, databaseUrl: database.url, env: { PROVIDER_RETRIES: '0' } });
    executor = t.app.get(ProposalExecutor);
  });

  afterAll(async () => {
    await t?.close();
    await hosted?.close();
    await database?.dispose();
  });

  const EMPLOYEE = { sub: 'nora@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] };

  /**
   * A company connected to the provider's first sandbox company, with its chart fetched (the rules
   * the submission checks), its company card set, and the employee mapped to the provider's first
   * employee (on Fiken, whose API has no employees, to none).
   */
  async function companyOn(
    provider: (typeof PROVIDERS)[number],
    paymentAccounts: Record<string, string> = {},
  ): Promise<string> {
    const company = await t.newCompany(provider.slice(0, 2));
    const employees = await readyForBookings(t, company, provider, paymentAccounts);
    const providerEmployeeId: string | null = employees[0]?.id ?? null;
    if (provider === 'tripletex') expect(providerEmployeeId).not.toBeNull();
    await t.app.get(EmployeeMappingRepository).save(
      company,
      EMPLOYEE.sub,
      {
        email: EMPLOYEE.sub,
        role: 'employee',
        externalIdentities: [],
        providerEmployeeId,
        defaultDepartmentId: null,
      },
      t.clock.now(),
    );
    return company;
  }

  /** The case's planned rows on `provider`. */
  const plannedOn = (c: BookedCase, provider: (typeof PROVIDERS)[number]): Row[] =>
    c.postings.map(([account, amount, vatCode]) => [
      account === CARD ? SANDBOX_COMPANY_CARD[provider] : account,
      amount,
      vatCode,
    ]);
  /** A row as the provider's ledger must show it: the generated VAT postings without their code. */
  const asBooked = ([account, amount, vatCode]: Row): Row => [account, amount, GENERATED.has(account) ? null : vatCode];

  const auth = (company: string, claims: Record<string, unknown>) => `Bearer ${t.token(company, claims)}`;

  describe.each(PROVIDERS)('%s', (provider) => {
    for (const c of BOOKED) {
      it(`${c.name}: shows the postings it will book before anyone approves`, async () => {
        const company = await companyOn(provider);
        const submitted = await t.http.post('/v1/proposals').set('Authorization', auth(company, EMPLOYEE)).send(c.body);
        expect(submitted.status).toBe(201);

        const view = await t.http
          .get(`/v1/proposals/${submitted.body.id}`)
          .set('Authorization', auth(company, ACCOUNTANT));

        expect(view.body.postingsSource).toBe('planned');
        expect(rowsOf(view.body.postings)).toEqual(plannedOn(c, provider));
        if (c.credit) expect(view.body.postings.at(-1)).toMatchObject(c.credit);
      });
    }

    for (const c of BOOKED) {
      it(`${c.name}: books it, and the provider’s ledger read back agrees with the plan`, async () => {
        const company = await companyOn(provider);
        const submitted = await t.http.post('/v1/proposals').set('Authorization', auth(company, EMPLOYEE)).send(c.body);
        const approved = await t.http
          .post(`/v1/review/${submitted.body.id}/approve`)
          .set('Authorization', auth(company, ACCOUNTANT))
          .send({});
        expect(approved.status).toBe(200);

        expect(await executor.drain()).toMatchObject({ executed: 1 });

        const view = await t.http
          .get(`/v1/proposals/${submitted.body.id}`)
          .set('Authorization', auth(company, ACCOUNTANT));
        expect(view.body).toMatchObject({ status: 'EXECUTED', postingsSource: 'booked', postingsReadBackError: null });
        expect(view.body.postingDifferences).toEqual([]);
        const booked = rowsOf(view.body.postings).map(asBooked);
        for (const row of plannedOn(c, provider).slice(0, -1)) expect(booked).toContainEqual(asBooked(row));
        if (c.credit) {
          const credit = view.body.postings.find((p: { amount: string }) => p.amount === c.postings.at(-1)![1]);
          // Fiken's definition declares purchaseResult.kid writeOnly: the KID is written, never read back.
          const { kid: _kid, ...shown } = c.credit;
          expect(credit).toMatchObject(provider === 'fiken' ? shown : c.credit);
        }
      });
    }

    for (const c of REFUSED.filter((c) => c.providers.includes(provider))) {
      it(`${c.name}: is refused at submission, and nothing is stored`, async () => {
        const company = await companyOn(provider, c.paymentAccounts);
        const res = await t.http.post('/v1/proposals').set('Authorization', auth(company, EMPLOYEE)).send(c.body);
        expect(res.status).toBe(c.status);
        expect(res.body.type).toContain(c.code);
        if (c.detail) expect(res.body.detail).toContain(c.detail);
        expect(await t.query('SELECT id FROM proposals WHERE company_id = $1', [company])).toEqual([]);
      });
    }

    if (provider === 'fiken') {
      it('supplier invoice from a supplier deactivated in Fiken: is refused at submission, and nothing is stored', async () => {
        const company = await companyOn(provider);
        const { slug } = hosted.sandbox.control.for('fiken').company(0);
        const { access_token } = hosted.sandbox.control.for('fiken').issueTokens(0);
        const contacts = await fetch(`${hosted.fikenApi}/companies/${slug}/contacts?supplier=true&inactive=true`, {
          headers: { Authorization: `Bearer ${access_token}` },
        }).then((res) => res.json() as Promise<{ name: string; organizationNumber: string }[]>);
        const [deactivated] = contacts;
        expect(deactivated).toBeDefined();

        const res = await t.http
          .post('/v1/proposals')
          .set('Authorization', auth(company, EMPLOYEE))
          .send({
            ...SUPPLIER_INVOICE,
            merchant: deactivated.name,
            supplier: { name: deactivated.name, organizationNumber: deactivated.organizationNumber },
            invoiceNumber: 'D-1',
          });

        expect(res.status).toBe(422);
        expect(res.body.type).toContain('account_rule_violated');
        expect(res.body.detail).toContain(`supplier ${deactivated.organizationNumber} is deactivated at the provider`);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['supplier.organizationNumber']);
        expect(await t.query('SELECT id FROM proposals WHERE company_id = $1', [company])).toEqual([]);
      });
    }

    if (provider === 'tripletex') {
      it('supplier invoice from a supplier inactive in Tripletex: is refused at submission, and nothing is stored', async () => {
        const company = await companyOn(provider);
        const [{ snapshot }] = (await t.query('SELECT snapshot FROM company_context WHERE company_id = $1', [
          company,
        ])) as { snapshot: { inactiveSuppliers: { name: string; organizationNumber: string }[] } }[];
        const [inactive] = snapshot.inactiveSuppliers;
        expect(inactive).toBeDefined();

        const body = {
          ...SUPPLIER_INVOICE,
          merchant: inactive.name,
          supplier: { name: inactive.name, organizationNumber: inactive.organizationNumber },
          invoiceNumber: 'I-1',
        };
        const res = await t.http.post('/v1/proposals').set('Authorization', auth(company, EMPLOYEE)).send(body);

        expect(res.status).toBe(422);
        expect(res.body.type).toContain('account_rule_violated');
        expect(res.body.detail).toContain(
          `supplier ${inactive.organizationNumber} (${inactive.name}) is inactive at the provider`,
        );
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['supplier.organizationNumber']);
        expect(await t.query('SELECT id FROM proposals WHERE company_id = $1', [company])).toEqual([]);

        // An active supplier's invoice is taken as before.
        const active = await t.http
          .post('/v1/proposals')
          .set('Authorization', auth(company, EMPLOYEE))
          .send({ ...SUPPLIER_INVOICE, invoiceNumber: 'I-2' });
        expect(active.status).toBe(201);
      });
    }

    it('supplier invoice twice: books it once, and holds the second naming the first', async () => {
      const company = await companyOn(provider);
      const first = await t.http
        .post('/v1/proposals')
        .set('Authorization', auth(company, EMPLOYEE))
        .send(SUPPLIER_INVOICE);
      await t.http.post(`/v1/review/${first.body.id}/approve`).set('Authorization', auth(company, ACCOUNTANT)).send({});
      await executor.drain();
      const again = await t.http
        .post('/v1/proposals')
        .set('Authorization', auth(company, EMPLOYEE))
        .send({ ...SUPPLIER_INVOICE, amount: '10500.00', date: TODAY });

      expect(again.body.status).toBe('PROPOSED');
      expect(again.body.reasons.join(' ')).toContain(first.body.id);
      const approval = await t.http
        .post(`/v1/review/${again.body.id}/approve`)
        .set('Authorization', auth(company, ACCOUNTANT))
        .send({});
      expect(approval.status).toBe(409);
      expect(approval.body.detail).toMatch(
        new RegExp(
          `supplier invoice F-1001 of 923609016 is already booked as ${provider} .+ by proposal ${first.body.id}`,
        ),
      );
    });
  });

  it('refuses bad input naming the field, and stores nothing', async () => {
    const company = await companyOn('tripletex');
    const send = (body: Record<string, unknown>) =>
      t.http.post('/v1/proposals').set('Authorization', auth(company, EMPLOYEE)).send(body);
    const fields = async (body: Record<string, unknown>, status = 400) => {
      const res = await send(body);
      expect(res.status).toBe(status);
      return (res.body.errors ?? []).map((e: { field: string }) => e.field);
    };
    const line = { accountCode: '6800', vatRate: '25', amount: '1.00' };
    const transport = BOOKED.find((c) => c.name === 'transport')!.body;

    expect(await fields({ ...transport, accountCode: undefined, vatRate: undefined, lines: [line, line] })).toEqual([
      'lines',
    ]);
    expect(
      await fields({
        ...transport,
        amount: '21.00',
        accountCode: undefined,
        vatRate: undefined,
        lines: Array(21).fill(line),
      }),
    ).toEqual(['lines']);
    expect(
      await fields({
        ...SUPPLIER_INVOICE,
        supplier: { ...SUPPLIER_INVOICE.supplier, organizationNumber: '923609017' },
      }),
    ).toEqual(['supplier.organizationNumber']);
    expect(
      await fields({ ...SUPPLIER_INVOICE, supplier: { ...SUPPLIER_INVOICE.supplier, bankAccount: '12345678901' } }),
    ).toEqual(['supplier.bankAccount']);
    expect(await fields({ ...SUPPLIER_INVOICE, dueDate: '2026-11-26' })).toEqual(['dueDate']);
    expect(await fields({ ...transport, paidWith: 'cash' })).toEqual(['paidWith']);
    expect(await fields({ ...transport, vatTreatment: 'reverse_charge' }, 422)).toEqual(['vatTreatment']);
    expect(await fields({ ...transport, currency: 'EUR', amountNok: '600.00' }, 422)).toEqual(['vatTreatment']);
    expect(await t.query('SELECT id FROM proposals WHERE company_id = $1', [company])).toEqual([]);
  });
});
