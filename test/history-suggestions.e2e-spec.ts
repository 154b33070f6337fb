import { ACCOUNTANT, hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';

/**
 * Trust from day one (docs/trust.md): the company's year of bookings at its provider becomes
 * suggestions an accountant confirms, over HTTP against the sandbox's seeded history.
 */
describe('history suggestions over HTTP', () => {
  let hosted: HostedSandbox;
  let t: JobsApp;

  beforeAll(async () => {
    hosted = await hostSandbox({ seed: 11, companies: 2, entriesPerCompany: 60, invoicesPerCompany: 5 });
    t = await startJobsApp({ hosted, env: { PROVIDER_RETRIES: '1', PROVIDER_TIMEOUT_MS: '5000' } });
  });

  afterAll(async () => {
    await t?.close();
    await hosted?.close();
  });

  const as = (company: string, claims = {}) => `Bearer ${t.token(company, claims)}`;
  const EMPLOYEE = { sub: 'nora@demo.no', role: 'employee', permissions: ['solve', 'query', 'facts'] };

  for (const provider of ['tripletex', 'fiken'] as const) {
    it(`reads a ${provider} company's year, suggests its regular suppliers, and auto-approves them once confirmed`, async () => {
      const company = await t.newCompany(provider.slice(0, 2));
      await t.connect(company, provider, 1);
      const accountant = as(company, ACCOUNTANT);

      const refreshed = await t.http.post('/v1/patterns/suggestions/refresh').set('Authorization', accountant);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.import).toMatchObject({ provider, status: 'done', error: null });
      expect(refreshed.body.import.bookingsRead).toBeGreaterThan(50);
      const requests = hosted.sandbox.control.calls({ provider });
      expect(requests.some((c) => /supplierInvoice|purchases/.test(c.path))).toBe(true);

      const listed = await t.http.get('/v1/patterns/suggestions?limit=200').set('Authorization', accountant);
      expect(listed.status).toBe(200);
      const byKey = new Map(listed.body.items.map((p: { merchantKey: string }) => [p.merchantKey, p]));
      expect(byKey.get('fjordkraft')).toMatchObject({
        accountCode: '6340',
        vatRate: '25',
        verified: false,
        history: expect.objectContaining({ bookings: expect.any(Number) }),
      });
      // Booked half to 6800, half to 6540: no account dominates, so nothing is suggested.
      expect(byKey.has('clas ohlson')).toBe(false);
      // Seen once: nothing to learn from.
      expect(byKey.has('ikea')).toBe(false);

      const fjordkraft = byKey.get('fjordkraft') as { id: string; amounts: { max: string } };
      const before = await t.http
        .post('/v1/proposals')
        .set('Authorization', as(company, EMPLOYEE))
        .send(expense('Fjordkraft AS', '1234.50', '6340'));
      expect(before.body).toMatchObject({ status: 'PROPOSED', route: 'review_recommended' });

      const confirmed = await t.http
        .post('/v1/patterns/suggestions/confirm')
        .set('Authorization', accountant)
        .send({ ids: listed.body.items.map((p: { id: string }) => p.id) });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.items.every((p: { verified: boolean }) => p.verified)).toBe(true);
      const events = await t.http
        .get(`/v1/events?type=PatternSaved&correlationId=${fjordkraft.id}`)
        .set('Authorization', accountant);
      expect(events.body.items.map((e: { actor: string; data: { cause: string } }) => [e.data.cause, e.actor])).toEqual(
        [
          ['suggested', ACCOUNTANT.sub],
          ['suggestion_confirmed', ACCOUNTANT.sub],
        ],
      );

      const after = await t.http
        .post('/v1/proposals')
        .set('Authorization', as(company, EMPLOYEE))
        .send(expense('FJORDKRAFT AS', '1456.00', '6340', 3));
      expect(after.body).toMatchObject({ status: 'APPROVED', route: 'auto_approve' });
      // The confirming accountant's own expense still waits for a second person.
      const own = await t.http
        .post('/v1/proposals')
        .set('Authorization', accountant)
        .send(expense('Fjordkraft AS', '1400.00', '6340', 5));
      expect(own.body.status).toBe('PROPOSED');
    });
  }

  it('refuses an employee, and a company without a connection', async () => {
    const company = await t.newCompany('nc');
    expect((await t.http.get('/v1/patterns/suggestions').set('Authorization', as(company, EMPLOYEE))).status).toBe(403);
    const refused = await t.http.post('/v1/patterns/suggestions/refresh').set('Authorization', as(company, ACCOUNTANT));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('provider_not_connected');
    const bad = await t.http
      .post('/v1/patterns/suggestions/confirm')
      .set('Authorization', as(company, ACCOUNTANT))
      .send({ ids: [] });
    expect(bad.status).toBe(400);
  });

  function expense(merchant: string, amount: string, accountCode: string, daysAgo = 1) {
    const date = new Date(t.clock.now().getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    return { kind: 'expense', merchant, amount, currency: 'NOK', date, accountCode, vatRate: '25' };
  }
});
