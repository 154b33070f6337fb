import { startTestApp, type TestApp } from './support/test-app';
import { api, type Person } from './support/proposals';

/** The console's company page: settings through the use case, and provider connections bound to the browser. */
describe('web console: company page', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_SANDBOX: 'on' } });
  });

  afterAll(async () => {
    await t.close();
  });

  async function signIn(who: Person): Promise<string> {
    const url = new URL((await api(t).post('/v1/console/links', who)).body.url as string);
    const res = await t.http.get(`${url.pathname}${url.search}`);
    return (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  }

  async function companyPage(cookie: string): Promise<{ text: string; csrf: string; csp: string }> {
    const res = await t.http.get('/console/company').set('Cookie', cookie);
    expect(res.status).toBe(200);
    return {
      text: res.text,
      csrf: /name="_csrf" value="([^"]+)"/.exec(res.text)![1],
      csp: res.headers['content-security-policy'],
    };
  }

  it('is for admins only', async () => {
    expect((await t.http.get('/console/company').set('Cookie', await signIn('accountant'))).status).toBe(403);
    expect((await t.http.get('/console/company').set('Cookie', await signIn('admin'))).status).toBe(200);
  });

  it('saves settings through the same validation as PUT /v1/config/company', async () => {
    const cookie = await signIn('admin');
    const { csrf } = await companyPage(cookie);
    const form = {
      _csrf: csrf,
      executionDelayMinutes: '5',
      autoApproveMaxAmount: '2 500,50',
      paymentAccount: '1921',
      locale: 'en-GB',
      'reviewChannel.kind': 'webhook',
      'reviewChannel.url': 'https://hooks.example.com/review',
      'invoicesChannel.kind': 'slack',
      'invoicesChannel.url': '',
      'gatewayCallback.kind': 'slack',
      'gatewayCallback.url': '',
    };
    const saved = await t.http.post('/console/company/settings').set('Cookie', cookie).type('form').send(form);
    expect(saved.status).toBe(303);
    expect((await api(t).get('/v1/config/company', 'admin')).body).toMatchObject({
      executionDelayMinutes: 5,
      autoApproveMaxAmount: '2500.50',
      paymentAccount: '1921',
      locale: 'en-GB',
      reviewChannel: { kind: 'webhook', url: 'https://hooks.example.com/review' },
      invoicesChannel: null,
    });

    const bad = await t.http
      .post('/console/company/settings')
      .set('Cookie', cookie)
      .type('form')
      .send({ ...form, paymentAccount: '12', locale: 'xx' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('paymentAccount');
    expect((await api(t).get('/v1/config/company', 'admin')).body.paymentAccount).toBe('1921');
  });

  it('binds the connection it starts to this browser: the state is refused in a browser without the cookie', async () => {
    const cookie = await signIn('admin');
    const { csrf, csp } = await companyPage(cookie);
    const started = await t.http
      .post('/console/company/connect/tripletex')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf });
    expect(started.status).toBe(303);
    const authorize = new URL(started.headers.location as string);
    expect(csp).toContain(`form-action 'self' `);
    const binding = (started.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('oauth_binding='))!;
    expect(binding).toMatch(/; Path=\/v1\/oauth; Expires=.+; HttpOnly; SameSite=Lax$/);
    const state = authorize.searchParams.get('state')!;

    const elsewhere = await t.http
      .post('/v1/oauth/tripletex/callback')
      .type('form')
      .send({ state, code: 'a-forwarded-token' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain('started in another browser');

    const here = await t.http
      .post('/v1/oauth/tripletex/callback')
      .set('Cookie', binding.split(';')[0])
      .type('form')
      .send({ state, code: 'not-a-real-employee-token' });
    // The state was accepted here (the link was not burnt by the forwarded attempt); Tripletex
    // then refuses the made-up token.
    expect(here.text).not.toContain('another browser');
    expect(here.text).not.toContain('used already');
    expect([400, 502]).toContain(here.status);
  });

  it('refuses to start a connection without the CSRF token', async () => {
    const cookie = await signIn('admin');
    const res = await t.http.post('/console/company/connect/fiken').set('Cookie', cookie).type('form').send({});
    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
