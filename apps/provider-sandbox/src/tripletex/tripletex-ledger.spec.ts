import request from 'supertest';
import { tripletexEmployeeToken } from '../constants';
import { checkProviderContract, SANDBOX_PDF, testSandbox, tripletexSession } from '@app/testing';

// The answers are checked against Tripletex's definition; some requests here are refused on purpose.
checkProviderContract({ requests: false });

const PNG = Buffer.from('\x89PNG\r\n\x1a\n0000', 'latin1');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const TIFF = Buffer.from('II*\x00\x08\x00\x00\x00', 'latin1');
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const WEBP = Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1');
const HEIC = Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00', 'latin1');

const API = '/tripletex/v2';

interface Ref {
  id: number;
}

async function setup(options: Parameters<typeof testSandbox>[0] = {}) {
  const sandbox = testSandbox(options);
  const auth = await tripletexSession(sandbox.app);
  const get = (path: string, query: Record<string, string | number> = {}) =>
    request(sandbox.app).get(`${API}${path}`).query(query).set('Authorization', auth);
  const accounts = (await get('/ledger/account', { fields: 'id,number' })).body.values as {
    id: number;
    number: number;
  }[];
  const vatTypes = (await get('/ledger/vatType')).body.values as { id: number; number: string; percentage: number }[];
  const accountId = (number: number): number => accounts.find((a) => a.number === number)?.id ?? -1;
  const vatTypeId = (number: string): number => vatTypes.find((v) => v.number === number)?.id ?? -1;
  const post = (body: unknown) =>
    request(sandbox.app)
      .post(`${API}/ledger/voucher`)
      .query({ sendToLedger: true })
      .set('Authorization', auth)
      .send(body as object);
  return { ...sandbox, auth, get, post, accountId, vatTypeId };
}

function expense(
  accountId: (n: number) => number,
  vatTypeId: (n: string) => number,
  gross: number,
  extra: Record<string, unknown> = {},
) {
  return {
    date: '2026-03-10',
    description: 'Inventar IKEA',
    postings: [
      {
        row: 1,
        account: { id: accountId(6540) },
        amountGross: gross,
        amountGrossCurrency: gross,
        vatType: { id: vatTypeId('1') },
      },
      { row: 1, account: { id: accountId(1920) }, amountGross: -gross, amountGrossCurrency: -gross },
    ],
    ...extra,
  };
}

describe('Tripletex sandbox: context', () => {
  it('serves an NS 4102 chart with VAT type references and no balance field', async () => {
    const { get } = await setup();
    const response = await get('/ledger/account', {
      isInactive: 'false',
      fields: 'id,number,name,type,vatType,isInactive',
    });
    expect(response.status).toBe(200);
    const numbers = response.body.values.map((a: { number: number }) => a.number);
    expect(numbers).toEqual(expect.arrayContaining([1500, 1920, 2400, 2710, 3000, 6300, 6540, 6800, 7140, 7350, 7770]));
    const inventory = response.body.values.find((a: { number: number }) => a.number === 6540);
    expect(inventory).toEqual({
      id: expect.any(Number),
      number: 6540,
      name: 'Inventar',
      type: 'OPERATING_EXPENSES',
      vatType: { id: expect.any(Number), url: expect.any(String) },
      isInactive: false,
    });
    expect(inventory).not.toHaveProperty('balance');
  });

  it('gives VAT types and accounts different ids in different companies', async () => {
    const { app, get } = await setup({ companies: 2 });
    const other = await tripletexSession(app, tripletexEmployeeToken(1));
    const mine = (await get('/ledger/vatType')).body.values as { id: number; number: string; percentage: number }[];
    const theirs = (await request(app).get(`${API}/ledger/vatType`).set('Authorization', other)).body.values as {
      id: number;
      number: string;
    }[];
    expect(mine.map((v) => v.number)).toEqual(theirs.map((v) => v.number));
    expect(mine.find((v) => v.number === '1')?.id).not.toBe(theirs.find((v) => v.number === '1')?.id);
    expect(
      mine
        .filter((v) => ['0', '1', '11', '13'].includes(v.number))
        .map((v) => v.percentage)
        .sort((a, b) => a - b),
    ).toEqual([0, 12, 15, 25]);
  });

  it('lists departments, employees and suppliers with their documented fields', async () => {
    const { get } = await setup();
    expect((await get('/department')).body.values[0]).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      departmentNumber: expect.any(String),
    });
    expect((await get('/employee')).body.values[0]).toMatchObject({
      id: expect.any(Number),
      firstName: expect.any(String),
      lastName: expect.any(String),
      email: expect.stringContaining('@'),
    });
    const supplier = (await get('/supplier')).body.values[0];
    expect(supplier).toMatchObject({
      id: expect.any(Number),
      name: expect.any(String),
      organizationNumber: expect.stringMatching(/^\d{9}$/),
    });
  });

  it('collapses nested resources to {id, url} unless fields expands them, and refuses unknown fields', async () => {
    const { get } = await setup();
    const plain = await get('/employee');
    expect(plain.body.values[0].department).toEqual({ id: expect.any(Number), url: expect.any(String) });
    const expanded = await get('/employee', { fields: 'id,department(name)' });
    expect(expanded.body.values[0]).toEqual({ id: expect.any(Number), department: { name: expect.any(String) } });
    const bad = await get('/employee', { fields: 'id,shoeSize' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 400, code: 11000 });
  });
});

describe('Tripletex sandbox: vouchers', () => {
  it('requires dateFrom and dateTo, and refuses the same date for both with 422', async () => {
    const { get } = await setup();
    expect((await get('/ledger/voucher', { dateFrom: '2026-01-01' })).status).toBe(422);
    const same = await get('/ledger/voucher', { dateFrom: '2026-01-05', dateTo: '2026-01-05' });
    expect(same.status).toBe(422);
    expect(same.body).toMatchObject({ status: 422, code: 18000, validationMessages: [{ field: 'dateTo' }] });
  });

  it('treats dateTo as exclusive', async () => {
    const { get } = await setup();
    const all = (await get('/ledger/voucher', { dateFrom: '2026-02-01', dateTo: '2026-03-01', fields: 'date' })).body
      .values as { date: string }[];
    const dates = [...new Set(all.map((v) => v.date))];
    const [first, second] = dates;
    const upToSecond = (await get('/ledger/voucher', { dateFrom: first, dateTo: second, fields: 'date' })).body
      .values as { date: string }[];
    expect(upToSecond.length).toBe(all.filter((v) => v.date === first).length);
    expect(upToSecond.every((v) => v.date === first)).toBe(true);
    const dayAfterSecond = new Date(Date.parse(`${second}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const withSecond = (await get('/ledger/voucher', { dateFrom: first, dateTo: dayAfterSecond, fields: 'date' })).body
      .values as { date: string }[];
    expect(withSecond.some((v) => v.date === second)).toBe(true);
  });

  it('pages with from/count across many pages until a short page', async () => {
    const { get } = await setup({ entriesPerCompany: 2_000 });
    const seen: number[] = [];
    let from = 0;
    for (;;) {
      const page = await get('/ledger/voucher', {
        dateFrom: '2025-01-01',
        dateTo: '2026-03-17',
        from,
        count: 150,
        fields: 'id',
      });
      expect(page.body).toMatchObject({ from, fullResultSize: 2_000, versionDigest: expect.any(String) });
      seen.push(...page.body.values.map((v: Ref) => v.id));
      if (page.body.values.length < 150) break;
      from += 150;
    }
    expect(seen).toHaveLength(2_000);
    expect(new Set(seen).size).toBe(2_000);
  });

  it('returns postings with kroner amounts that sum to zero, and some vouchers without attachment', async () => {
    const { get } = await setup();
    const response = await get('/ledger/voucher', {
      dateFrom: '2025-01-01',
      dateTo: '2026-03-17',
      fields: 'id,number,date,description,attachment,postings(*)',
    });
    const vouchers = response.body.values as {
      attachment: Ref | null;
      postings: { amount: number; amountGross: number; row: number }[];
    }[];
    expect(vouchers.some((v) => v.attachment === null)).toBe(true);
    expect(vouchers.some((v) => v.attachment !== null)).toBe(true);
    for (const voucher of vouchers) {
      const cents = voucher.postings.reduce((sum, p) => sum + Math.round(p.amount * 100), 0);
      expect(cents).toBe(0);
    }
  });

  it('books a balanced voucher and splits net and VAT itself (6540, 25 %, 13 500 → 10 800 + 2 700 on 2710)', async () => {
    const { post, accountId, vatTypeId, control } = await setup();
    const response = await post(expense(accountId, vatTypeId, 13500, { externalVoucherNumber: 'proposal-1' })).query({
      fields: '*,postings(*,account(number))',
    });
    expect(response.status).toBe(201);
    const postings = response.body.value.postings as {
      account: { number: number };
      amount: number;
      amountGross: number;
      row: number;
    }[];
    expect(postings.map((p) => [p.account.number, p.amount, p.row])).toEqual([
      [6540, 10800, 1],
      [2710, 2700, 0],
      [1920, -13500, 1],
    ]);
    expect(response.body.value).toMatchObject({
      externalVoucherNumber: 'proposal-1',
      attachment: null,
      number: expect.any(Number),
    });
    expect(control.for('tripletex').bookings(0)).toHaveLength(1);
  });

  it('refuses an unbalanced voucher with 422', async () => {
    const { post, accountId, vatTypeId, control } = await setup();
    const body = expense(accountId, vatTypeId, 100);
    body.postings[1].amountGross = -99.99;
    body.postings[1].amountGrossCurrency = -99.99;
    const response = await post(body);
    expect(response.status).toBe(422);
    expect(response.body.validationMessages[0].message).toMatch(/ikke i balanse/);
    expect(control.for('tripletex').bookings(0)).toHaveLength(0);
  });

  it('refuses row 0 with 422 code 18000 and a validation message', async () => {
    const { post, accountId, vatTypeId } = await setup();
    const body = expense(accountId, vatTypeId, 100);
    body.postings[0].row = 0;
    const response = await post(body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      code: 18000,
      validationMessages: [{ field: 'postings.row', path: 'postings[0].row' }],
    });
  });

  it('refuses unknown accounts and VAT types with 422', async () => {
    const { post, accountId, vatTypeId } = await setup();
    const unknownAccount = expense(accountId, vatTypeId, 100);
    unknownAccount.postings[0].account = { id: 123 };
    expect((await post(unknownAccount)).body.validationMessages[0]).toMatchObject({ field: 'postings.account' });
    const unknownVat = expense(accountId, vatTypeId, 100);
    unknownVat.postings[0].vatType = { id: 1 };
    const response = await post(unknownVat);
    expect(response.status).toBe(422);
    expect(response.body.validationMessages[0]).toMatchObject({ field: 'postings.vatType' });
  });

  it('serves the standard voucher types, keeps a voucher\'s type, and refuses an unknown one or "Utgående faktura"', async () => {
    const { get, post, accountId, vatTypeId } = await setup();
    const types = (await get('/ledger/voucherType', { fields: 'id,name' })).body.values as {
      id: number;
      name: string;
    }[];
    expect(types.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Utgående faktura', 'Leverandørfaktura', 'Ansattutlegg', 'Betaling']),
    );
    expect(
      (await get('/ledger/voucherType', { name: 'faktura' })).body.values.map((t: { name: string }) => t.name),
    ).toEqual(['Utgående faktura', 'Leverandørfaktura']);
    const outlay = types.find((t) => t.name === 'Ansattutlegg')!;

    const booked = await post(expense(accountId, vatTypeId, 100, { voucherType: { id: outlay.id } }));
    expect(booked.status).toBe(201);
    const read = await get(`/ledger/voucher/${booked.body.value.id}`, { fields: 'voucherType(id,name)' });
    expect(read.body.value.voucherType).toEqual({ id: outlay.id, name: 'Ansattutlegg' });

    const unknown = await post(expense(accountId, vatTypeId, 100, { voucherType: { id: 1 } }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.validationMessages[0]).toMatchObject({ field: 'voucherType' });
    const outgoing = types.find((t) => t.name === 'Utgående faktura')!;
    const refused = await post(expense(accountId, vatTypeId, 100, { voucherType: { id: outgoing.id } }));
    expect(refused.status).toBe(422);
    expect(refused.body.validationMessages[0].message).toContain('Utgående faktura');
  });

  it('finds bookings by externalVoucherNumber through /ledger/voucher/>externalVoucherNumber', async () => {
    const { post, get, accountId, vatTypeId } = await setup();
    await post(expense(accountId, vatTypeId, 250, { externalVoucherNumber: 'p-1' }));
    const booked = await post(expense(accountId, vatTypeId, 300, { externalVoucherNumber: 'p-2' }));
    const found = await get('/ledger/voucher/%3EexternalVoucherNumber', {
      externalVoucherNumber: 'p-2',
      fields: 'id,externalVoucherNumber',
    });
    expect(found.status).toBe(200);
    expect(found.body.values).toEqual([{ id: booked.body.value.id, externalVoucherNumber: 'p-2' }]);
    const none = await get('/ledger/voucher/>externalVoucherNumber', { externalVoucherNumber: 'p-3' });
    expect(none.body).toMatchObject({ fullResultSize: 0, values: [] });
  });

  it('shows bookings in the voucher list of their date', async () => {
    const { post, get, accountId, vatTypeId } = await setup();
    const booked = await post(expense(accountId, vatTypeId, 500));
    const list = await get('/ledger/voucher', { dateFrom: '2026-03-10', dateTo: '2026-03-11', fields: 'id' });
    expect(list.body.values.map((v: Ref) => v.id)).toContain(booked.body.value.id);
  });

  it('attaches a receipt from multipart field file and refuses other formats', async () => {
    const { app, auth, post, accountId, vatTypeId } = await setup();
    const voucherId = (await post(expense(accountId, vatTypeId, 500))).body.value.id as number;
    const upload = () => request(app).post(`${API}/ledger/voucher/${voucherId}/attachment`).set('Authorization', auth);
    const text = await upload().attach('file', Buffer.from('hello'), {
      filename: 'note.txt',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(422);
    const missing = await upload().field('other', 'x');
    expect(missing.status).toBe(422);
    const ok = await upload()
      .attach('file', SANDBOX_PDF, { filename: 'kvittering.pdf', contentType: 'application/pdf' })
      .query({ fields: 'id,attachment(*)' });
    expect(ok.status).toBe(200);
    expect(ok.body.value.attachment).toMatchObject({ id: expect.any(Number), mimeType: 'application/pdf' });
  });

  it.each([
    ['PDF', SANDBOX_PDF, 200],
    ['PNG', PNG, 200],
    ['JPEG', JPEG, 200],
    ['TIFF', TIFF, 200],
    ['GIF', GIF, 422],
    ['WebP', WEBP, 422],
    ['HEIC', HEIC, 422],
  ])('takes only PDF, PNG, JPEG and TIFF attachments, by content: %s → %i', async (_type, bytes, status) => {
    const { app, auth, post, accountId, vatTypeId } = await setup();
    const voucherId = (await post(expense(accountId, vatTypeId, 500))).body.value.id as number;
    const response = await request(app)
      .post(`${API}/ledger/voucher/${voucherId}/attachment`)
      .set('Authorization', auth)
      .attach('file', bytes, { filename: 'kvittering.pdf', contentType: 'application/pdf' });
    expect(response.status).toBe(status);
    if (status === 422) {
      expect(response.body).toMatchObject({
        status: 422,
        code: 15000,
        message: expect.stringContaining('PDF, PNG, JPEG og TIFF'),
      });
    }
  });

  it('books a posting in a foreign currency at its NOK amount, with the currency amount beside it', async () => {
    const { get, post, accountId, vatTypeId } = await setup();
    const eur = (await get('/currency', { code: 'EUR', fields: 'id,code' })).body.values as {
      id: number;
      code: string;
    }[];
    expect(eur).toEqual([{ id: expect.any(Number), code: 'EUR' }]);
    const currency = { id: eur[0].id };
    const body = {
      date: '2026-03-10',
      description: 'Hotell Berlin',
      postings: [
        {
          row: 1,
          account: { id: accountId(6540) },
          amountGross: 1462.5,
          amountGrossCurrency: 125,
          currency,
          vatType: { id: vatTypeId('1') },
        },
        { row: 2, account: { id: accountId(1920) }, amountGross: -1462.5, amountGrossCurrency: -125, currency },
      ],
    };
    const response = await post(body).query({ fields: 'postings(row,amountGross,amountGrossCurrency,currency(code))' });
    expect(response.status).toBe(201);
    expect(response.body.value.postings).toEqual([
      { row: 1, amountGross: 1462.5, amountGrossCurrency: 125, currency: { code: 'EUR' } },
      { row: 0, amountGross: 292.5, amountGrossCurrency: 25, currency: { code: 'EUR' } },
      { row: 2, amountGross: -1462.5, amountGrossCurrency: -125, currency: { code: 'EUR' } },
    ]);
    const nokWithOtherAmount = expense(accountId, vatTypeId, 500);
    nokWithOtherAmount.postings[0].amountGrossCurrency = 40;
    const refused = await post(nokWithOtherAmount);
    expect(refused.status).toBe(422);
    expect(refused.body.validationMessages).toEqual([
      expect.objectContaining({ field: 'postings.amountGrossCurrency' }),
    ]);
  });

  it('attaches a receipt to a seeded voucher that had none', async () => {
    const { app, auth, get } = await setup();
    const list = (
      await get('/ledger/voucher', { dateFrom: '2025-01-01', dateTo: '2026-03-17', fields: 'id,attachment' })
    ).body.values as { id: number; attachment: Ref | null }[];
    const bare = list.find((v) => v.attachment === null);
    expect(bare).toBeDefined();
    const id = bare?.id ?? 0;
    await request(app)
      .post(`${API}/ledger/voucher/${id}/attachment`)
      .set('Authorization', auth)
      .attach('file', SANDBOX_PDF, 'kvittering.png');
    expect((await get(`/ledger/voucher/${id}`, { fields: 'attachment' })).body.value.attachment).not.toBeNull();
  });
});

describe('Tripletex sandbox: balances and invoices', () => {
  it('computes balanceIn, balanceChange and balanceOut from postings, dateTo exclusive', async () => {
    const { get, post, accountId, vatTypeId } = await setup();
    const query = {
      dateFrom: '2026-03-01',
      dateTo: '2026-03-16',
      fields: 'account(number),balanceIn,balanceChange,balanceOut',
    };
    const before = (await get('/balanceSheet', query)).body.values as {
      account: { number: number };
      balanceIn: number;
      balanceChange: number;
      balanceOut: number;
    }[];
    for (const row of before)
      expect(Math.round((row.balanceIn + row.balanceChange) * 100)).toBe(Math.round(row.balanceOut * 100));
    const totalOut = before.reduce((sum, row) => sum + Math.round(row.balanceOut * 100), 0);
    expect(totalOut).toBe(0);
    const bank = (rows: typeof before) => rows.find((r) => r.account.number === 1920);
    const postings = (
      await get('/ledger/posting', {
        dateFrom: '2000-01-01',
        dateTo: '2026-03-16',
        accountId: accountId(1920),
        fields: 'amount',
      })
    ).body.values as { amount: number }[];
    expect(Math.round((bank(before)?.balanceOut ?? 0) * 100)).toBe(
      postings.reduce((sum, p) => sum + Math.round(p.amount * 100), 0),
    );

    await post(expense(accountId, vatTypeId, 13500));
    const after = (await get('/balanceSheet', query)).body.values as typeof before;
    const change = (rows: typeof before, n: number) => rows.find((r) => r.account.number === n)?.balanceChange ?? 0;
    expect(Math.round((change(after, 2710) - change(before, 2710)) * 100)).toBe(270000);
    expect(Math.round((change(after, 1920) - change(before, 1920)) * 100)).toBe(-1350000);
  });

  it('refuses the same date for the balance sheet', async () => {
    const { get } = await setup();
    expect((await get('/balanceSheet', { dateFrom: '2026-03-01', dateTo: '2026-03-01' })).status).toBe(422);
  });

  it('lists customer invoices by invoice date (both required, To exclusive), some of them overdue', async () => {
    const { get } = await setup();
    expect((await get('/invoice', { invoiceDateFrom: '2025-11-01' })).status).toBe(422);
    const response = await get('/invoice', {
      invoiceDateFrom: '2025-11-01',
      invoiceDateTo: '2026-03-17',
      fields: 'id,invoiceNumber,invoiceDate,invoiceDueDate,customer(id,name),amount,amountOutstanding,currency',
    });
    expect(response.status).toBe(200);
    const invoices = response.body.values as {
      invoiceDueDate: string;
      amountOutstanding: number;
      customer: { name: string };
      currency: Ref;
    }[];
    expect(invoices[0].customer).toEqual({ id: expect.any(Number), name: expect.any(String) });
    expect(invoices[0].currency).toEqual({ id: 1, url: expect.any(String) });
    const overdue = invoices.filter((i) => i.invoiceDueDate < '2026-03-16' && i.amountOutstanding > 0);
    expect(overdue.length).toBeGreaterThan(0);
    expect(overdue.length).toBeLessThan(invoices.length);
  });

  it('names an invoice currency only when currency(code) is asked for, with amounts in that currency beside NOK', async () => {
    const { get } = await setup();
    const response = await get('/invoice', {
      invoiceDateFrom: '2025-11-01',
      invoiceDateTo: '2026-03-17',
      fields: 'id,amount,amountCurrency,amountOutstanding,amountCurrencyOutstanding,currency(code)',
    });
    const invoices = response.body.values as {
      amount: number;
      amountCurrency: number;
      amountOutstanding: number;
      amountCurrencyOutstanding: number;
      currency: { code: string };
    }[];
    const euro = invoices.filter((i) => i.currency.code === 'EUR');
    expect(euro.length).toBeGreaterThan(0);
    expect(euro.every((i) => i.amountCurrency < i.amount && i.amountCurrencyOutstanding <= i.amountCurrency)).toBe(
      true,
    );
    const kroner = invoices.filter((i) => i.currency.code === 'NOK');
    expect(
      kroner.every((i) => i.amountCurrency === i.amount && i.amountCurrencyOutstanding === i.amountOutstanding),
    ).toBe(true);
  });
});
