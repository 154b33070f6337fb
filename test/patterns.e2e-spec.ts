import { startTestApp, type TestApp } from './support/test-app';
import { api, expectProblem, proposalBody, repeatBody } from './support/proposals';

describe('/v1/patterns (docs/api.md §4)', () => {
  let t: TestApp;
  let as: ReturnType<typeof api>;
  const spotify = { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    as = api(t, await t.newCompany('patterns'));
  });

  it('creates, lists, edits and retires a pattern, each audited', async () => {
    const created = await as.post('/v1/patterns', 'accountant', spotify);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      merchantName: 'Spotify AB',
      history: null,
      merchantKey: 'spotify',
      accountCode: '6540',
      vatRate: '25',
      vatTreatment: null,
      supplierOrganizationNumber: null,
      approvals: 0,
      verified: true,
      writtenBy: 'kari@demo.no',
      lastChangedBy: null,
      confirmedBy: ['kari@demo.no'],
      amounts: { count: 0, mean: null, min: null, max: null },
      version: 1,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      retiredAt: null,
    });
    const id = created.body.id as string;

    expect((await as.get('/v1/patterns', 'accountant')).body).toEqual({ items: [created.body], nextCursor: null });

    const edited = await as.put(`/v1/patterns/${id}`, 'accountant', { vatRate: '15', verified: false });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id,
      vatRate: '15',
      verified: false,
      version: 2,
      writtenBy: 'kari@demo.no',
      lastChangedBy: 'kari@demo.no',
      confirmedBy: [],
    });

    t.clock.advance(1000);
    const retired = await as.delete(`/v1/patterns/${id}`, 'accountant');
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ id, retiredAt: t.clock.now().toISOString(), version: 3 });

    expect((await as.get('/v1/patterns', 'accountant')).body.items).toEqual([]);
    expect((await as.get('/v1/patterns?includeRetired=true', 'accountant')).body.items).toHaveLength(1);
    const chain = await as.get(`/v1/events?correlationId=${id}`, 'accountant');
    expect(
      chain.body.items.map((e: { type: string; sequence: number; actor: string }) => [e.type, e.sequence, e.actor]),
    ).toEqual([
      ['PatternSaved', 1, 'kari@demo.no'],
      ['PatternSaved', 2, 'kari@demo.no'],
      ['PatternRetired', 3, 'kari@demo.no'],
    ]);
    expectProblem(await as.delete(`/v1/patterns/${id}`, 'accountant'), 409, 'invalid_transition');
  });

  it('makes a merchant auto-approve while active, and not once retired', async () => {
    const created = await as.post('/v1/patterns', 'accountant', spotify);
    expect((await as.submit()).body.status).toBe('APPROVED');

    await as.delete(`/v1/patterns/${created.body.id}`, 'accountant');

    expect((await as.submit()).body).toMatchObject({ status: 'PROPOSED', confidence: 0 });
  });

  it('scores the next submission against an edited pattern, although the merchant was just scored', async () => {
    const created = await as.post('/v1/patterns', 'accountant', spotify);
    expect((await as.submit()).body.status).toBe('APPROVED');

    await as.put(`/v1/patterns/${created.body.id}`, 'accountant', { vatRate: '15' });
    const next = await as.submit();

    expect(next.status).toBe(201);
    expect(next.body.status).toBe('PROPOSED');
    expect(next.body.confidence).toBeLessThan(0.7);
    expect((await as.get(`/v1/events?correlationId=${next.body.id}`, 'accountant')).body.items).toHaveLength(1);
  });

  it('learns the VAT treatment and the supplier from approvals and corrections, and holds a proposal that differs', async () => {
    const SUPPLIER = '923609016';
    const OTHER = '974760673';
    const invoice = (n: number, organizationNumber: string) =>
      repeatBody(n, {
        kind: 'supplier_invoice',
        supplier: { name: 'Spotify AB', organizationNumber },
        invoiceNumber: `F-${n}`,
        dueDate: '2026-12-31',
      });
    const approve = async (id: string, corrections?: object) => {
      const approved = await as.post(`/v1/review/${id}/approve`, 'accountant', corrections ? { corrections } : {});
      expect(approved.status).toBe(200);
    };
    const reasons = (res: { body: { reasons: string[] } }) => res.body.reasons.join(' | ');
    const learnt = async () => (await as.get('/v1/patterns?merchant=spotify', 'accountant')).body.items[0];

    const first = await as.submit(repeatBody(1));
    expect(first.body.status).toBe('PROPOSED');
    await approve(first.body.id);
    expect(await learnt()).toMatchObject({ vatTreatment: 'domestic', supplierOrganizationNumber: null, approvals: 1 });

    // A supplier invoice from a supplier the merchant's approvals have not shown waits for a person,
    // whose correction of the supplier is what the pattern learns.
    const unknownSupplier = await as.submit(invoice(2, OTHER));
    expect(unknownSupplier.body.status).toBe('PROPOSED');
    expect(reasons(unknownSupplier)).toContain(`supplier ${OTHER} is not known for the merchant`);
    await approve(unknownSupplier.body.id, { supplier: { name: 'Spotify AB', organizationNumber: SUPPLIER } });
    expect(await learnt()).toMatchObject({ vatTreatment: 'domestic', supplierOrganizationNumber: SUPPLIER });

    expect((await as.submit(invoice(3, SUPPLIER))).body.status).toBe('APPROVED');
    const otherSupplier = await as.submit(invoice(4, OTHER));
    expect(otherSupplier.body).toMatchObject({ status: 'PROPOSED', route: 'review_recommended' });
    expect(reasons(otherSupplier)).toContain(`supplier ${OTHER} differs from the merchant's ${SUPPLIER}`);

    // Another VAT treatment is held, naming the learnt one; the approval that corrects it teaches it.
    const abroad = { currency: 'USD', amountNok: '119.00', vatRate: '25' };
    const reverse = await as.submit(repeatBody(5, { ...abroad, vatTreatment: 'reverse_charge' }));
    expect(reverse.body).toMatchObject({ status: 'PROPOSED', route: 'review_recommended' });
    expect(reasons(reverse)).toContain(
      "VAT treatment reverse_charge differs from the merchant's domestic (2 approvals)",
    );
    await approve(reverse.body.id, { vatTreatment: 'foreign_no_deduction' });
    expect(await learnt()).toMatchObject({ vatTreatment: 'foreign_no_deduction', approvals: 3 });

    expect((await as.submit(repeatBody(6, { ...abroad, vatTreatment: 'foreign_no_deduction' }))).body.status).toBe(
      'APPROVED',
    );
    const domestic = await as.submit(repeatBody(7));
    expect(domestic.body.status).toBe('PROPOSED');
    expect(reasons(domestic)).toContain("VAT treatment domestic differs from the merchant's foreign_no_deduction");
  });

  it('takes a VAT treatment and a supplier on a written pattern, and refuses invalid ones naming the field', async () => {
    const created = await as.post('/v1/patterns', 'accountant', {
      ...spotify,
      vatTreatment: 'reverse_charge',
      supplierOrganizationNumber: '923609016',
    });
    expect(created.body).toMatchObject({ vatTreatment: 'reverse_charge', supplierOrganizationNumber: '923609016' });

    const edited = await as.put(`/v1/patterns/${created.body.id}`, 'accountant', { supplierOrganizationNumber: null });
    expect(edited.body).toMatchObject({ vatTreatment: 'reverse_charge', supplierOrganizationNumber: null });

    const telenor = { ...spotify, merchantName: 'Telenor' };
    for (const [field, value] of [
      ['vatTreatment', 'abroad'],
      ['supplierOrganizationNumber', '923609017'],
    ]) {
      const invalid = await as.post('/v1/patterns', 'accountant', { ...telenor, [field]: value });
      expectProblem(invalid, 400, 'validation_failed');
      expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect((await as.get('/v1/patterns?merchant=telenor', 'accountant')).body.items).toEqual([]);
  });

  it('refuses a duplicate of an active pattern with 409', async () => {
    await as.post('/v1/patterns', 'accountant', spotify);

    expectProblem(
      await as.post('/v1/patterns', 'accountant', { ...spotify, merchantName: 'SPOTIFY' }),
      409,
      'invalid_transition',
    );
  });

  it('pages and filters by merchant', async () => {
    await as.post('/v1/patterns', 'accountant', spotify);
    t.clock.advance(1000);
    await as.post('/v1/patterns', 'accountant', { ...spotify, merchantName: 'Telenor ASA', accountCode: '6900' });
    t.clock.advance(1000);
    await as.post('/v1/patterns', 'accountant', { ...spotify, merchantName: 'Adobe Inc', accountCode: '6550' });

    const first = await as.get('/v1/patterns?limit=2', 'accountant');
    const second = await as.get(
      `/v1/patterns?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      'accountant',
    );

    expect([...first.body.items, ...second.body.items].map((p: { merchantKey: string }) => p.merchantKey)).toEqual([
      'spotify',
      'telenor',
      'adobe',
    ]);
    expect(second.body.nextCursor).toBeNull();
    expect((await as.get('/v1/patterns?merchant=telenor%20asa', 'accountant')).body.items).toHaveLength(1);
  });

  it('validates strictly', async () => {
    const res = await as.post('/v1/patterns', 'accountant', {
      merchantName: '',
      accountCode: '65',
      vatRate: 25,
      note: 'x',
    });

    expectProblem(res, 400, 'validation_failed');
    expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(
      new Set(['merchantName', 'accountCode', 'vatRate', 'note']),
    );
    const created = await as.post('/v1/patterns', 'accountant', spotify);
    expectProblem(await as.put(`/v1/patterns/${created.body.id}`, 'accountant', {}), 400, 'validation_failed');
    expectProblem(await as.get('/v1/patterns?includeRetired=yes', 'accountant'), 400, 'validation_failed');
  });

  it("answers another company's pattern with 404", async () => {
    const created = await as.post('/v1/patterns', 'accountant', spotify);
    const other = api(t, await t.newCompany('other'));

    expectProblem(
      await other.put(`/v1/patterns/${created.body.id}`, 'accountant', { vatRate: '15' }),
      404,
      'not_found',
    );
    expectProblem(await other.delete(`/v1/patterns/${created.body.id}`, 'accountant'), 404, 'not_found');
  });

  it('is for accountants with rules: a manager gets 403', async () => {
    expectProblem(await as.get('/v1/patterns', 'manager'), 403, 'permission_denied');
    expect((await as.submit(proposalBody())).status).toBe(201);
  });
});
