import request from 'supertest';
import { checkProviderContract, testSandbox, tripletexSession } from '@app/testing';
import { SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN } from '../constants';

// The answers are checked against Tripletex's definition; some requests here are refused on purpose.
checkProviderContract({ requests: false });

const API = '/tripletex/v2';

async function setup() {
  const sandbox = testSandbox({});
  const auth = await tripletexSession(sandbox.app);
  const get = (path: string, query: Record<string, string | number> = {}) =>
    request(sandbox.app).get(`${API}${path}`).query(query).set('Authorization', auth);
  const accounts = (
    await get('/ledger/account', {
      fields: 'id,number,name,vatType(number),vatLocked,legalVatTypes(number),ledgerType,requiresDepartment,isInactive',
    })
  ).body.values as {
    id: number;
    number: number;
    name: string;
    vatType: { number: string } | null;
    vatLocked: boolean;
    legalVatTypes: { number: string }[];
    ledgerType: string;
    requiresDepartment: boolean;
    isInactive: boolean;
  }[];
  const vatTypes = (await get('/ledger/vatType')).body.values as { id: number; number: string; percentage: number }[];
  const account = (number: number) => accounts.find((a) => a.number === number);
  const accountId = (number: number): number => account(number)?.id ?? -1;
  const vatTypeId = (number: string): number => vatTypes.find((v) => v.number === number)?.id ?? -1;
  const post = (path: string, body: unknown) =>
    request(sandbox.app)
      .post(`${API}${path}`)
      .query(path === '/ledger/voucher' ? { sendToLedger: true } : {})
      .set('Authorization', auth)
      .send(body as object);
  /** A voucher: `lines` debited, their total credited to `credit`. */
  const voucher = (lines: Record<string, unknown>[], credit: Record<string, unknown>) => {
    const total = lines.reduce((sum, line) => sum + (line.amountGross as number), 0);
    return post('/ledger/voucher', {
      date: '2026-03-10',
      description: 'Test',
      postings: [
        ...lines.map((line, i) => ({ row: i + 1, amountGrossCurrency: line.amountGross, ...line })),
        { row: lines.length + 1, amountGross: -total, amountGrossCurrency: -total, ...credit },
      ],
    });
  };
  return { ...sandbox, get, post, voucher, account, accountId, vatTypeId, vatTypes };
}

describe('Tripletex sandbox: the chart an accountant books in', () => {
  it('holds the company card, employee debt, VAT types 0/1/11/12/13/86/88 and accounts with rules', async () => {
    const { account, vatTypes, get } = await setup();
    expect(account(1930)).toMatchObject({ name: 'Firmakort', ledgerType: 'GENERAL', isInactive: false });
    expect(account(2910)).toMatchObject({ name: 'Gjeld til ansatte og eiere', ledgerType: 'EMPLOYEE' });
    expect(account(2400)).toMatchObject({ ledgerType: 'VENDOR' });
    expect(account(6300)).toMatchObject({
      vatLocked: true,
      vatType: { number: '0' },
      legalVatTypes: [{ number: '0' }],
    });
    expect(account(7320)).toMatchObject({ requiresDepartment: true });
    expect(account(6100)).toMatchObject({ isInactive: true });
    expect(vatTypes.map((v) => v.number)).toEqual(expect.arrayContaining(['0', '1', '11', '12', '13', '86', '88']));
    const active = (await get('/ledger/account', { isInactive: 'false', fields: 'number' })).body.values as {
      number: number;
    }[];
    expect(active.map((a) => a.number)).not.toContain(6100);
    expect((await get('/department')).body.values.length).toBeGreaterThan(0);
  });
});

describe('Tripletex sandbox: VAT postings it generates', () => {
  it('a reverse charge (86) keeps the amount on the account and posts 25 % of it on 2710 and 2700', async () => {
    const { voucher, accountId, vatTypeId, get } = await setup();
    const response = await voucher(
      [{ account: { id: accountId(6550) }, amountGross: 498.6, vatType: { id: vatTypeId('86') } }],
      { account: { id: accountId(1930) } },
    );
    expect(response.status).toBe(201);
    const postings = (
      await get(`/ledger/voucher/${response.body.value.id}`, { fields: 'postings(row,account(number),amount)' })
    ).body.value.postings as { row: number; account: { number: number }; amount: number }[];
    expect(postings.map((p) => [p.row, p.account.number, p.amount])).toEqual([
      [1, 6550, 498.6],
      [0, 2710, 124.65],
      [0, 2700, -124.65],
      [2, 1930, -498.6],
    ]);
  });

  it('rounds the VAT of a gross amount half up to the øre (12 %: 899.00 → 96.32)', async () => {
    const { voucher, accountId, vatTypeId, get } = await setup();
    const response = await voucher(
      [{ account: { id: accountId(7140) }, amountGross: 899, vatType: { id: vatTypeId('13') } }],
      { account: { id: accountId(1920) } },
    );
    const postings = (
      await get(`/ledger/voucher/${response.body.value.id}`, { fields: 'postings(account(number),amount)' })
    ).body.value.postings as { account: { number: number }; amount: number }[];
    expect(postings.map((p) => [p.account.number, p.amount])).toEqual([
      [7140, 802.68],
      [2710, 96.32],
      [1920, -899],
    ]);
  });
});

describe("Tripletex sandbox: account rules refuse a posting with Tripletex's 422", () => {
  it.each([
    ['a VAT type other than the locked one', 6300, { vatType: '1' }, 'postings.vatType', /låst til mva-kode 0/],
    ['a VAT type the account does not allow', 6800, { vatType: '3' }, 'postings.vatType', /ikke tillatt på konto 6800/],
    ['no department where one is required', 7320, { vatType: '1' }, 'postings.department', /Avdeling må oppgis/],
    ['an inactive account', 6100, { vatType: '1' }, 'postings.account', /inaktiv/],
  ] as const)('%s', async (_name, number, line, field, message) => {
    const { voucher, accountId, vatTypeId, control } = await setup();
    const response = await voucher(
      [{ account: { id: accountId(number) }, amountGross: 100, vatType: { id: vatTypeId(line.vatType) } }],
      { account: { id: accountId(1920) } },
    );
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ status: 422, code: 18000 });
    expect(response.body.validationMessages).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, message: expect.stringMatching(message) })]),
    );
    expect(control.for('tripletex').bookings(SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN)).toHaveLength(0);
  });

  it('asks for the supplier on 2400 and the employee on 2910, and takes them when named', async () => {
    const { voucher, accountId, vatTypeId, get } = await setup();
    const line = { account: { id: accountId(6800) }, amountGross: 100, vatType: { id: vatTypeId('1') } };
    const noSupplier = await voucher([line], { account: { id: accountId(2400) } });
    expect(noSupplier.status).toBe(422);
    expect(noSupplier.body.validationMessages[0]).toMatchObject({ field: 'postings.supplier' });
    const noEmployee = await voucher([line], { account: { id: accountId(2910) } });
    expect(noEmployee.body.validationMessages[0]).toMatchObject({ field: 'postings.employee' });

    const employee = (await get('/employee')).body.values[0] as { id: number };
    const supplier = (await get('/supplier')).body.values[0] as { id: number };
    expect((await voucher([line], { account: { id: accountId(2910) }, employee: { id: employee.id } })).status).toBe(
      201,
    );
    const invoice = await voucher([line], {
      account: { id: accountId(2400) },
      supplier: { id: supplier.id },
      invoiceNumber: 'F-77',
      termOfPayment: '2026-03-24',
    });
    expect(invoice.status).toBe(201);
    const payable = (
      await get('/ledger/posting', {
        dateFrom: '2026-03-10',
        dateTo: '2026-03-11',
        accountId: accountId(2400),
        fields: 'supplier(id),invoiceNumber,termOfPayment,amount',
      })
    ).body.values;
    const owed = (
      await get('/ledger/posting', {
        dateFrom: '2026-03-10',
        dateTo: '2026-03-11',
        employeeId: employee.id,
        fields: 'account(number),amount',
      })
    ).body.values;
    expect(owed).toEqual([{ account: { number: 2910 }, amount: -100 }]);
    expect(payable).toEqual([
      { supplier: { id: supplier.id }, invoiceNumber: 'F-77', termOfPayment: '2026-03-24', amount: -100 },
    ]);
  });
});

describe('Tripletex sandbox: suppliers', () => {
  it('finds a supplier by organisation number, and creates one it does not know', async () => {
    const { get, post } = await setup();
    const known = (await get('/supplier', { fields: 'id,organizationNumber' })).body.values[0] as {
      id: number;
      organizationNumber: string;
    };
    const found = await get('/supplier', { organizationNumber: known.organizationNumber, fields: 'id' });
    expect(found.body.values).toEqual([{ id: known.id }]);

    expect((await get('/supplier', { organizationNumber: '914778271' })).body.values).toEqual([]);
    const created = await post('/supplier', {
      name: 'Kontormøbler Nord AS',
      organizationNumber: '914778271',
      bankAccountPresentation: [{ bban: '86011117947' }],
    });
    expect(created.status).toBe(201);
    const again = await get('/supplier', {
      organizationNumber: '914778271',
      fields: 'id,name,bankAccountPresentation',
    });
    expect(again.body.values).toEqual([
      {
        id: created.body.value.id,
        name: 'Kontormøbler Nord AS',
        bankAccountPresentation: [expect.objectContaining({ bban: '86011117947' })],
      },
    ]);
  });

  it('keeps its last supplier marked inactive, and filters by isInactive', async () => {
    const { get } = await setup();
    const all = (await get('/supplier', { fields: 'id,name,isInactive' })).body.values as {
      id: number;
      name: string;
      isInactive: boolean;
    }[];
    const inactive = (await get('/supplier', { isInactive: 'true', fields: 'id,name,isInactive' })).body.values;
    expect(inactive).toEqual([{ id: all[all.length - 1].id, name: 'IKEA AS', isInactive: true }]);
    const active = (await get('/supplier', { isInactive: 'false', fields: 'id' })).body.values;
    expect(active).toHaveLength(all.length - 1);
  });

  it('refuses a supplier without a name or with a malformed organisation number', async () => {
    const { post } = await setup();
    const response = await post('/supplier', { organizationNumber: '12345' });
    expect(response.status).toBe(422);
    expect(response.body.validationMessages.map((m: { field: string }) => m.field)).toEqual([
      'name',
      'organizationNumber',
    ]);
  });
});
