import { startTestApp, type TestApp } from './support/test-app';
import { api, type Person } from './support/proposals';
import { signInWithLink } from './support/console-sign-in';

/**
 * The console's company page: settings and the employee mapping through the API's use cases, and
 * provider connections bound to the browser.
 */
describe('web console: company page', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_SANDBOX: 'on' } });
  });

  afterAll(async () => {
    await t.close();
  });

  async function signIn(who: Person, company = t.company): Promise<string> {
    const link = (await api(t, company).post('/v1/console/links', who)).body.url as string;
    return (await signInWithLink(t.http, link)).cookie;
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

  it('is for admins only, and says so in words to anyone else', async () => {
    const refused = await t.http.get('/console/company').set('Cookie', await signIn('accountant'));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only an administrator can change the company’s settings');
    expect(refused.text).not.toMatch(/permission &quot;|token lacks|role_insufficient|permission_denied/);
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
      'paymentAccounts.company_card': '',
      'paymentAccounts.employee': '2910',
      locale: 'en-GB',
      openPeriodStart: '2026-01-01',
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
      openPeriodStart: '2026-01-01',
      reviewChannel: { kind: 'webhook', url: 'https://hooks.example.com/review' },
      invoicesChannel: null,
    });
    expect((await companyPage(cookie)).text).toContain('name="openPeriodStart" type="date" value="2026-01-01"');

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

  describe('employee mapping', () => {
    const saveMapping = (cookie: string, form: Record<string, string>) =>
      t.http.post('/console/company/employees').set('Cookie', cookie).type('form').send(form);
    const removeMapping = (cookie: string, form: Record<string, string>) =>
      t.http.post('/console/company/employees/remove').set('Cookie', cookie).type('form').send(form);
    const mapping = (userId: string, company = t.company) =>
      api(t, company).get(`/v1/config/employees/${encodeURIComponent(userId)}`, 'admin');
    const userId = () => `u-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

    it('adds, changes and removes a mapping through the same use case as /v1/config/employees', async () => {
      const cookie = await signIn('admin');
      const { csrf } = await companyPage(cookie);
      const user = userId();

      const added = await saveMapping(cookie, {
        _csrf: csrf,
        userId: user,
        email: `${user}@Demo.no`,
        role: 'manager',
        identities: `slack: U-${user}\r\nTeams: T-${user}`,
        providerEmployeeId: '',
      });
      expect(added.status).toBe(303);
      expect(added.headers.location).toBe('/console/company?done=employee-saved#employees-heading');
      expect((await mapping(user)).body).toMatchObject({
        userId: user,
        email: `${user}@demo.no`,
        role: 'manager',
        externalIdentities: [
          { channel: 'slack', externalId: `U-${user}` },
          { channel: 'teams', externalId: `T-${user}` },
        ],
        providerEmployeeId: null,
      });
      const listed = await t.http.get('/console/company?done=employee-saved').set('Cookie', cookie);
      expect(listed.text).toContain('The employee mapping was saved.');
      expect(listed.text).toMatch(new RegExp(`<tr data-user="${user}">[\\s\\S]*?slack: U-${user}, teams: T-${user}`));

      const change = await t.http.get(`/console/company?employee=${user}`).set('Cookie', cookie);
      expect(change.status).toBe(200);
      expect(change.text).toContain(`name="email"\n      type="email"\n      value="${user}@demo.no"`);
      expect(change.text).toContain(`slack: U-${user}\nteams: T-${user}</textarea>`);

      const changed = await saveMapping(cookie, {
        _csrf: csrf,
        userId: user,
        email: `${user}@demo.no`,
        role: 'accountant',
        identities: `slack: U-${user}`,
        providerEmployeeId: 'emp-42',
      });
      expect(changed.status).toBe(303);
      expect((await mapping(user)).body).toMatchObject({
        role: 'accountant',
        externalIdentities: [{ channel: 'slack', externalId: `U-${user}` }],
        providerEmployeeId: 'emp-42',
      });

      const removed = await removeMapping(cookie, { _csrf: csrf, userId: user });
      expect(removed.status).toBe(303);
      expect(removed.headers.location).toBe('/console/company?done=employee-removed#employees-heading');
      expect((await mapping(user)).status).toBe(404);
      expect((await removeMapping(cookie, { _csrf: csrf, userId: user })).status).toBe(404);
    });

    it('sends the form back with readable reasons and the values as typed when the use case refuses them', async () => {
      const cookie = await signIn('admin');
      const { csrf } = await companyPage(cookie);
      const user = userId();

      const refused = await saveMapping(cookie, {
        _csrf: csrf,
        userId: user,
        email: 'not-an-address',
        role: 'admin',
        identities: `slack: U-${user}\nskype: live:${user}`,
        providerEmployeeId: '',
      });

      expect(refused.status).toBe(400);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.text).toContain('<h1>Company</h1>');
      expect(refused.text).toMatch(/<div class="error" id="employee-errors" role="alert">/);
      expect(refused.text).toContain('<li>Email: must be an email address</li>');
      expect(refused.text).toContain(
        '<li>Chat identities, line 2: must be one of slack, discord, teams, web, email</li>',
      );
      expect(refused.text).toMatch(
        /value="not-an-address"\s+required\s+autocomplete="off"\s+aria-describedby="employee-errors"\s+aria-invalid="true"/,
      );
      expect(refused.text).toContain(`slack: U-${user}\nskype: live:${user}</textarea>`);
      expect(refused.text).toMatch(/<option value="admin" selected>Administrator<\/option>/);
      expect((await mapping(user)).status).toBe(404);

      const taken = await api(t).put(`/v1/config/employees/${user}-first`, 'admin', {
        email: `${user}@demo.no`,
        role: 'employee',
        externalIdentities: [],
      });
      expect(taken.status).toBe(201);
      const twice = await saveMapping(cookie, {
        _csrf: csrf,
        userId: user,
        email: `${user}@demo.no`,
        role: 'employee',
        identities: '',
        providerEmployeeId: '',
      });
      expect(twice.status).toBe(400);
      expect(twice.text).toMatch(/<li>Email: [^<]*<\/li>/);
      expect((await mapping(user)).status).toBe(404);
    });

    it('refuses a change without the CSRF token, and changes nothing', async () => {
      const cookie = await signIn('admin');
      const user = userId();
      const form = { userId: user, email: `${user}@demo.no`, role: 'employee', identities: '', providerEmployeeId: '' };
      const refused = await saveMapping(cookie, form);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('The form was refused');
      expect((await mapping(user)).status).toBe(404);

      const body = { email: `${user}@demo.no`, role: 'employee', externalIdentities: [] };
      expect((await api(t).put(`/v1/config/employees/${user}`, 'admin', body)).status).toBe(201);
      expect((await removeMapping(cookie, { userId: user })).status).toBe(403);
      expect((await mapping(user)).status).toBe(200);
    });

    it('lets no one but an admin change the mapping', async () => {
      const user = userId();
      const body = { email: `${user}@demo.no`, role: 'employee', externalIdentities: [] };
      expect((await api(t).put(`/v1/config/employees/${user}`, 'admin', body)).status).toBe(201);
      for (const who of ['accountant', 'manager'] as const) {
        const cookie = await signIn(who);
        const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(
          (await t.http.get('/console/review').set('Cookie', cookie)).text,
        )![1];
        const save = await saveMapping(cookie, { _csrf: csrf, userId: user, email: 'eve@demo.no', role: 'admin' });
        expect(save.status).toBe(403);
        // Refused for the role, not for the form token.
        expect(save.text).not.toContain('The form was refused');
        expect((await removeMapping(cookie, { _csrf: csrf, userId: user })).status).toBe(403);
      }
      expect((await mapping(user)).body).toMatchObject({ email: `${user}@demo.no`, role: 'employee' });
    });

    it('keeps one company’s admin away from another company’s mapping', async () => {
      const other = await t.newCompany('console-emp');
      const user = userId();
      const body = { email: `${user}@demo.no`, role: 'manager', externalIdentities: [] };
      expect((await api(t, other).put(`/v1/config/employees/${user}`, 'admin', body)).status).toBe(201);
      const cookie = await signIn('admin');
      const { csrf, text } = await companyPage(cookie);
      expect(text).not.toContain(user);

      expect((await t.http.get(`/console/company?employee=${user}`).set('Cookie', cookie)).status).toBe(404);
      expect((await removeMapping(cookie, { _csrf: csrf, userId: user })).status).toBe(404);
      // Saving the same user id maps a person of this company; the other company's mapping stays as it was.
      const saved = await saveMapping(cookie, {
        _csrf: csrf,
        userId: user,
        email: `${user}@demo.no`,
        role: 'admin',
        identities: '',
        providerEmployeeId: '',
      });
      expect(saved.status).toBe(303);
      expect((await mapping(user, other)).body).toMatchObject({ email: `${user}@demo.no`, role: 'manager' });
      expect((await mapping(user)).body).toMatchObject({ role: 'admin' });
    });
  });
});
