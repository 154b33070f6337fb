import { startTestApp, type TestApp } from './support/test-app';
import { api, expectProblem, proposalBody, repeatBody } from './support/proposals';

describe('/v1/config/company (docs/api.md §5)', () => {
  let t: TestApp;
  let as: ReturnType<typeof api>;
  const slack = { kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/xyz' };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    as = api(t, await t.newCompany('config'));
  });

  it('shows the defaults until an admin changes them', async () => {
    const res = await as.get('/v1/config/company', 'admin');

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      reviewChannel: null,
      invoicesChannel: null,
      gatewayCallback: null,
      executionDelayMinutes: 15,
      paymentAccount: '1920',
      paymentAccounts: { bank: '1920', company_card: null, employee: '2910' },
      autoApproveMaxAmount: '10000.00',
      locale: 'nb-NO',
      openPeriodStart: null,
    });
  });

  it('changes only the keys sent; null clears a channel', async () => {
    await as.put('/v1/config/company', 'admin', {
      reviewChannel: slack,
      invoicesChannel: slack,
      paymentAccount: '1921',
    });

    const res = await as.put('/v1/config/company', 'admin', { invoicesChannel: null, executionDelayMinutes: 0 });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      reviewChannel: slack,
      invoicesChannel: null,
      gatewayCallback: null,
      executionDelayMinutes: 0,
      paymentAccount: '1921',
      paymentAccounts: { bank: '1921', company_card: null, employee: '2910' },
      autoApproveMaxAmount: '10000.00',
      locale: 'nb-NO',
      openPeriodStart: null,
    });
    expect((await as.get('/v1/config/company', 'admin')).body).toEqual(res.body);
  });

  it('sets the console locale to nb-NO or en-GB, and refuses any other', async () => {
    const set = await as.put('/v1/config/company', 'admin', { locale: 'en-GB' });
    expect(set.status).toBe(200);
    expect(set.body.locale).toBe('en-GB');

    const bad = await as.put('/v1/config/company', 'admin', { locale: 'de-DE' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect((await as.get('/v1/config/company', 'admin')).body.locale).toBe('en-GB');
  });

  it('sets the auto-approval limit as a decimal string in NOK, or none with null', async () => {
    const set = await as.put('/v1/config/company', 'admin', { autoApproveMaxAmount: '2500.5' });
    expect(set.status).toBe(200);
    expect(set.body.autoApproveMaxAmount).toBe('2500.50');

    const none = await as.put('/v1/config/company', 'admin', { autoApproveMaxAmount: null });
    expect(none.body.autoApproveMaxAmount).toBeNull();
    expect((await as.get('/v1/config/company', 'admin')).body.autoApproveMaxAmount).toBeNull();
  });

  it.each([[-1], ['-1.00'], [10000], ['10 000'], ['1e4'], ['100.001'], [true]])(
    'refuses the auto-approval limit %p with validation_failed, changing nothing',
    async (value) => {
      const res = await as.put('/v1/config/company', 'admin', { autoApproveMaxAmount: value });

      expectProblem(res, 400, 'validation_failed');
      expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(
        new Set(['autoApproveMaxAmount']),
      );
      expect((await as.get('/v1/config/company', 'admin')).body.autoApproveMaxAmount).toBe('10000.00');
    },
  );

  it('sends a proposal above the limit to review, whatever its score, with the reason', async () => {
    await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });
    await as.put('/v1/config/company', 'admin', { autoApproveMaxAmount: '500.00' });

    const above = await as.submit(proposalBody({ amount: '500.01' }));
    const at = await as.submit(repeatBody(1, { amount: '500.00' }));

    expect(above.body).toMatchObject({ status: 'PROPOSED', route: 'review_recommended', confidence: 0.85 });
    expect(above.body.reasons).toContain(
      "amount NOK 500.01 is above the company's auto-approval limit of NOK 500.00: a person must approve it",
    );
    expect(at.body.status).toBe('APPROVED');
  });

  it('sets the open period start: a proposal dated before it goes to review with the reason; null restores the default', async () => {
    await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });
    const set = await as.put('/v1/config/company', 'admin', { openPeriodStart: '2026-11-14' });
    expect(set.status).toBe(200);
    expect(set.body.openPeriodStart).toBe('2026-11-14');

    const before = await as.submit(repeatBody(1)); // dated 2026-11-13
    const from = await as.submit(proposalBody()); // dated 2026-11-20

    expect(before.body).toMatchObject({ status: 'PROPOSED', route: 'review_required', confidence: 0.5 });
    expect(before.body.reasons).toContain(
      "dated 2026-11-13, before the company's open period, which starts 2026-11-14: " +
        'the books before it are closed, so a person must decide where it belongs; never auto-approved',
    );
    expect(from.body.status).toBe('APPROVED');

    const reset = await as.put('/v1/config/company', 'admin', { openPeriodStart: null });
    expect(reset.body.openPeriodStart).toBeNull();
    expect((await as.submit(repeatBody(2))).body.status).toBe('APPROVED');
  });

  it.each([['2026-02-30'], ['14.11.2026'], [20261114], [true]])(
    'refuses the open period start %p with validation_failed on openPeriodStart',
    async (value) => {
      const res = await as.put('/v1/config/company', 'admin', { openPeriodStart: value });

      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['openPeriodStart']);
    },
  );

  it('applies the execution delay to auto-approvals', async () => {
    await as.put('/v1/config/company', 'admin', { executionDelayMinutes: 0 });
    await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });

    const res = await as.submit();

    expect(res.body).toMatchObject({ status: 'APPROVED', executeAfter: t.clock.now().toISOString() });
  });

  it('reports every bad key at once and changes nothing', async () => {
    const res = await as.put('/v1/config/company', 'admin', {
      reviewChannel: { kind: 'teams', url: 'https://x.example' },
      gatewayCallback: { kind: 'webhook', url: 'not a url' },
      executionDelayMinutes: -1,
      paymentAccount: '19',
      thresholds: { auto: 0.8 },
    });

    expectProblem(res, 400, 'validation_failed');
    expect(new Set(res.body.errors.map((e: { field: string }) => e.field))).toEqual(
      new Set(['reviewChannel.kind', 'gatewayCallback.url', 'executionDelayMinutes', 'paymentAccount', 'thresholds']),
    );
    const urlOnly = await as.put('/v1/config/company', 'admin', {
      gatewayCallback: { kind: 'webhook', url: 'not a url' },
    });
    expectProblem(urlOnly, 400, 'validation_failed');
    expect(urlOnly.body.errors).toEqual([{ field: 'gatewayCallback.url', message: expect.any(String) }]);
    expect((await as.get('/v1/config/company', 'admin')).body.executionDelayMinutes).toBe(15);
  });

  it('is for admins with config: an accountant gets 403', async () => {
    expectProblem(await as.get('/v1/config/company', 'accountant'), 403, 'permission_denied');
    expectProblem(
      await as.put('/v1/config/company', 'accountant', { executionDelayMinutes: 0 }),
      403,
      'permission_denied',
    );
  });

  describe('in production', () => {
    let prod: TestApp;

    beforeAll(async () => {
      prod = await startTestApp({ env: { NODE_ENV: 'production' } });
    });
    afterAll(async () => prod.close());

    it.each([
      ['plain http', 'http://gateway.example.com/hook'],
      ['a loopback address', 'https://127.0.0.1:8443/hook'],
      ['a private address', 'https://10.0.0.7/hook'],
      ['localhost', 'https://localhost/hook'],
      // Forms the URL parser rewrites, or that embed an IPv4 address, which used to be stored.
      ['an IPv4-mapped loopback address', 'https://[::ffff:127.0.0.1]:8443/hook'],
      ['an IPv4-mapped metadata address', 'https://[::ffff:a9fe:a9fe]/hook'],
      ['an IPv4-compatible loopback address', 'https://[::7f00:1]/hook'],
      ['a NAT64 loopback address', 'https://[64:ff9b::7f00:1]/hook'],
      ['an IETF protocol assignment', 'https://192.0.0.1/hook'],
      ['an IPv6 documentation address', 'https://[2001:db8::1]/hook'],
    ])('refuses a notification target on %s', async (_label, url) => {
      const res = await api(prod).put('/v1/config/company', 'admin', { gatewayCallback: { kind: 'webhook', url } });

      expectProblem(res, 400, 'validation_failed');
      expect(res.body.errors).toEqual([{ field: 'gatewayCallback.url', message: expect.any(String) }]);
    });

    it('accepts a public https target', async () => {
      const res = await api(prod).put('/v1/config/company', 'admin', {
        gatewayCallback: { kind: 'webhook', url: 'https://gateway.example.com/hook' },
      });

      expect(res.status).toBe(200);
    });
  });
});
