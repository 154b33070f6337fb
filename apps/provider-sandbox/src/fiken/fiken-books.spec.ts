import request from 'supertest';
import { checkProviderContract, fikenAuthorize, testSandbox } from '@app/testing';

// The answers are checked against Fiken's definition; some requests here are refused on purpose.
checkProviderContract({ requests: false });

const SLUG = 'demo-fiken-as';
const DATE = '2026-03-10';

async function setup() {
  const sandbox = testSandbox({});
  const tokens = await fikenAuthorize(sandbox.app);
  const bearer = `Bearer ${tokens.access_token}`;
  const get = (path: string, query: Record<string, string | number | boolean> = {}) =>
    request(sandbox.app).get(`/fiken/api/v2/companies/${SLUG}${path}`).query(query).set('Authorization', bearer);
  const post = (path: string, body: unknown) =>
    request(sandbox.app)
      .post(`/fiken/api/v2/companies/${SLUG}${path}`)
      .set('Authorization', bearer)
      .send(body as object);
  const balance = async (code: string) =>
    ((await get('/accountBalances', { date: DATE, pageSize: 100 })).body as { code: string; balance: number }[]).find(
      (r) => r.code === code,
    )?.balance ?? 0;
  const bookings = () => sandbox.control.for('fiken').bookings(SLUG);
  return { get, post, balance, bookings };
}

const line = (extra: Record<string, unknown> = {}) => ({
  description: 'Strøm mars',
  netPrice: 200_000,
  vat: 50_000,
  account: '6340',
  vatType: 'HIGH',
  ...extra,
});

async function newSupplier(post: Awaited<ReturnType<typeof setup>>['post']): Promise<number> {
  const created = await post('/contacts', {
    name: 'Nordlys Strøm AS',
    organizationNumber: '923609016',
    supplier: true,
  });
  expect(created.status).toBe(201);
  return Number((created.headers.location as string).split('/').pop());
}

describe('Fiken sandbox: the books', () => {
  it('lists the bank accounts with their type: the company card is a credit card, the closed account inactive', async () => {
    const { get } = await setup();
    const banks = (await get('/bankAccounts')).body as { accountCode: string; type: string; inactive: boolean }[];
    expect(banks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ accountCode: '1920:10001', type: 'normal', inactive: false }),
        expect.objectContaining({ accountCode: '1920:10002', type: 'credit_card', name: 'Firmakort', inactive: false }),
        expect.objectContaining({ accountCode: '1920:10003', type: 'normal', inactive: true }),
      ]),
    );
    const accounts = (await get('/accounts', { fromAccount: 2910, toAccount: 2910 })).body as { code: string }[];
    expect(accounts).toEqual([{ code: '2910', name: 'Gjeld til ansatte og eiere' }]);
  });

  it('creates a supplier contact with its 2400 sub-ledger, found by organisation number', async () => {
    const { get, post } = await setup();
    expect((await get('/contacts', { organizationNumber: '923609016' })).body).toEqual([]);
    const id = await newSupplier(post);
    const found = (await get('/contacts', { organizationNumber: '923609016', supplier: true })).body as {
      contactId: number;
      supplierAccountCode: string;
    }[];
    expect(found).toEqual([
      expect.objectContaining({ contactId: id, supplierAccountCode: expect.stringMatching(/^2400:\d{5}$/) }),
    ]);
    const accounts = (await get('/accounts', { fromAccount: 2400, toAccount: 2400, pageSize: 100 })).body as {
      code: string;
    }[];
    expect(accounts.map((a) => a.code)).toContain(found[0].supplierAccountCode);
  });

  it('books an unpaid supplier purchase on the supplier sub-ledger; the bank does not move', async () => {
    const { get, post, balance } = await setup();
    const supplierId = await newSupplier(post);
    const [contact] = (await get('/contacts', { organizationNumber: '923609016' })).body as {
      supplierAccountCode: string;
    }[];
    const bank = await balance('1920:10001');
    const created = await post('/purchases', {
      date: DATE,
      dueDate: '2026-03-24',
      kind: 'supplier',
      paid: false,
      supplierId,
      currency: 'NOK',
      identifier: 'F-118',
      kid: '20261180044',
      lines: [line()],
    });
    expect(created.status).toBe(201);
    expect(await balance(contact.supplierAccountCode)).toBe(-250_000);
    expect(await balance('1920:10001')).toBe(bank);
    const purchase = (await get(`/purchases/${(created.headers.location as string).split('/').pop()}`)).body as {
      transactionId: number;
      supplier: { contactId: number };
      dueDate: string;
    };
    expect(purchase).toMatchObject({ supplier: { contactId: supplierId }, dueDate: '2026-03-24', paid: false });
    const transaction = (await get(`/transactions/${purchase.transactionId}`)).body as {
      entries: { lines: unknown[] }[];
    };
    expect(transaction.entries[0].lines).toEqual([
      { amount: 200_000, account: '6340', vatCode: '1' },
      { amount: 50_000, account: '2710' },
      { amount: -250_000, account: contact.supplierAccountCode },
    ]);
  });

  it('computes reverse-charge VAT on the NOK amount and posts it on 2710 and 2700', async () => {
    const { post, balance, bookings } = await setup();
    const output = await balance('2700');
    const created = await post('/purchases', {
      date: DATE,
      kind: 'cash_purchase',
      paid: true,
      currency: 'USD',
      paymentAccount: '1920:10002',
      paymentAmountInNok: 21_401,
      lines: [
        line({
          netPrice: undefined,
          vat: undefined,
          netPriceInCurrency: 2_000,
          vatInCurrency: 0,
          vatType: 'HIGH_FOREIGN_SERVICE_DEDUCTIBLE',
        }),
      ],
    });
    expect(created.status).toBe(201);
    // 25 % of 214.01 is 53.5025: 53.50.
    expect((bookings()[0] as { journalEntry: { lines: unknown[] } }).journalEntry.lines).toEqual([
      { amount: 21_401, account: '6340', vatCode: '86' },
      { amount: 5_350, account: '2710' },
      { amount: -5_350, account: '2700' },
      { amount: -21_401, account: '1920:10002' },
    ]);
    expect((await balance('2700')) - output).toBe(-5_350);
    expect(await balance('1920:10002')).toBe(-21_401);
  });

  it('takes an employee outlay paid from 2910', async () => {
    const { post, balance } = await setup();
    const created = await post('/purchases', {
      date: DATE,
      kind: 'cash_purchase',
      paid: true,
      currency: 'NOK',
      paymentAccount: '2910',
      lines: [line({ account: '5915', netPrice: 30_000, vat: 4_500, vatType: 'MEDIUM' })],
    });
    expect(created.status).toBe(201);
    expect(await balance('2910')).toBe(-34_500);
  });

  it.each([
    ['a supplier purchase without dueDate', { dueDate: undefined }, /dueDate is required/],
    ['a supplier purchase without supplierId', { supplierId: undefined }, /supplierId is required/],
    ['a due date before the purchase date', { dueDate: '2026-03-01' }, /dueDate must not be before/],
    ['a KID that is not 2 to 25 digits', { kid: '12AB' }, /kid/],
    ['VAT on a reverse-charge line', { lines: [line({ vatType: 'HIGH_FOREIGN_SERVICE_DEDUCTIBLE' })] }, /must be 0/],
    ['a line on an inactive bank account', { lines: [line({ account: '1920:10003' })] }, /inactive/],
  ])('refuses %s', async (_name, extra, message) => {
    const { post, bookings } = await setup();
    const supplierId = await newSupplier(post);
    const response = await post('/purchases', {
      date: DATE,
      dueDate: '2026-03-24',
      kind: 'supplier',
      paid: false,
      supplierId,
      currency: 'NOK',
      lines: [line()],
      ...extra,
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
    expect(bookings()).toHaveLength(0);
  });

  it('refuses a payment from a closed bank account', async () => {
    const { post, bookings } = await setup();
    const response = await post('/purchases', {
      date: DATE,
      kind: 'cash_purchase',
      paid: true,
      currency: 'NOK',
      paymentAccount: '1920:10003',
      lines: [line()],
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/inactive/);
    expect(bookings()).toHaveLength(0);
  });
});
