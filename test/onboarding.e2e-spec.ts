import { SANDBOX_FIKEN_CLIENT_SECRET, SANDBOX_TRIPLETEX_CONSUMER_TOKEN, tripletexEmployeeToken } from '@app/sandbox';
import {
  AuthorizationRequestStore,
  ProviderConnectionRepository,
  ProviderTokenStore,
  type ProviderKind,
} from '@app/domain';
import { AuthorizationStateSigner } from '@app/application';
import { DataSource } from 'typeorm';
import { startOnboardingApp, type OnboardingTestApp } from './support/onboarding-app';
import { signInWithLink } from './support/console-sign-in';

const EMPLOYEE = { role: 'employee', permissions: ['solve', 'query', 'facts'] };
const DECIMAL = /^-?\d+\.\d{2}$/;

describe('onboarding, context, employees and balance (sandbox mode)', () => {
  let t: OnboardingTestApp;
  /** Provider tokens the service came to hold during the suite: none may ever leave it. */
  const secrets = new Set<string>([
    SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
    SANDBOX_FIKEN_CLIENT_SECRET,
    tripletexEmployeeToken(0),
    tripletexEmployeeToken(1),
    tripletexEmployeeToken(2),
  ]);
  const companies: string[] = [];

  beforeAll(async () => {
    t = await startOnboardingApp({ PROVIDER_RETRIES: '1', PROVIDER_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => t?.close());

  const newCompany = async (prefix?: string) => {
    const id = await t.newCompany(prefix);
    companies.push(id);
    return id;
  };
  const admin = (company: string) => `Bearer ${t.tokenFor(company)}`;
  const employee = (company: string) => `Bearer ${t.tokenFor(company, EMPLOYEE)}`;

  /** The API's connect answer: a one-time console login link for the admin, leading to the Connect button. */
  async function connectLink(company: string, provider: ProviderKind): Promise<string> {
    const res = await t.http.post(`/v1/config/providers/${provider}/connect`).set('Authorization', admin(company));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ authorizeUrl: expect.any(String), expiresAt: expect.any(String) });
    return res.body.authorizeUrl as string;
  }

  /** A connection started as the admin's browser does: sign in with the API's link, press Connect. */
  interface Started {
    /** The provider's consent URL the console redirected to. */
    readonly authorizeUrl: string;
    /** The browser-binding cookie ("name=value") the console set in this browser. */
    readonly binding: string;
  }

  async function startConnect(company: string, provider: ProviderKind): Promise<Started> {
    const { cookie, location } = await signInWithLink(t.http, await connectLink(company, provider));
    expect(location).toBe(`/console/company?connect=${provider}#connection-heading`);
    const page = await t.http.get(location.split('#')[0]).set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`data-connect-prompt="${provider}"`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const started = await t.http
      .post(`/console/company/connect/${provider}`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf });
    expect(started.status).toBe(303);
    const binding = (started.headers['set-cookie'] as unknown as string[])
      .find((c) => c.startsWith('oauth_binding='))!
      .split(';')[0];
    return { authorizeUrl: started.headers.location as string, binding };
  }

  /** Opens the provider's consent page, submits its form as a browser would, and returns where it redirects. */
  async function submitConsent(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<string> {
    const pageResponse = await fetch(authorizeUrl);
    expect(pageResponse.status).toBe(200);
    const pageHtml = await pageResponse.text();
    const action = /<form method="post" action="([^"]+)"/.exec(pageHtml)![1];
    const form = new URLSearchParams();
    for (const [, name, value] of pageHtml.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      form.set(
        name,
        value
          .replace(/&amp;/g, '&')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>'),
      );
    }
    form.set('company', /<option value="([^"]+)"/.exec(pageHtml)![1]);
    form.set('decision', decision);
    const posted = await fetch(new URL(action, authorizeUrl), { method: 'POST', body: form, redirect: 'manual' });
    expect(posted.status).toBe(302);
    const location = new URL(posted.headers.get('location')!);
    expect(location.pathname).toMatch(/^\/v1\/oauth\/(tripletex|fiken)\/callback$/);
    return `${location.pathname}${location.search}`;
  }

  /** The provider's redirect back, in the browser that started the connection. */
  const returnTo = (callback: string, started: Started) => t.http.get(callback).set('Cookie', started.binding);

  async function connect(company: string, provider: ProviderKind) {
    const started = await startConnect(company, provider);
    const callback = await submitConsent(started.authorizeUrl, 'approve');
    const res = await returnTo(callback, started);
    return { callback, res, started };
  }

  const connection = (company: string) => t.app.get(ProviderConnectionRepository).find(company);
  const storedContext = async (company: string) =>
    (await t.app.get(DataSource).query('SELECT company_id FROM company_context WHERE company_id = $1', [company]))
      .length;

  describe('connecting a provider', () => {
    it('connects Tripletex through the consent page, stores the token sealed and pre-fetches the context', async () => {
      const company = await newCompany();
      const { res } = await connect(company, 'tripletex');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.text).toContain('Tripletex connected');
      expect(await connection(company)).toMatchObject({
        provider: 'tripletex',
        status: 'connected',
        connectedBy: 'ola@demo.no',
      });
      expect(await storedContext(company)).toBe(1);

      const context = await t.http.get('/v1/context').set('Authorization', employee(company));
      expect(context.status).toBe(200);
      expect(context.body.provider).toBe('tripletex');
      expect(context.body.accounts).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: '6540' }), expect.objectContaining({ code: '1920' })]),
      );
      expect(context.body.vatTypes).toEqual(expect.arrayContaining([expect.objectContaining({ ratePercent: '25' })]));
      expect(context.body.departments.length).toBeGreaterThan(0);
      expect(context.body).not.toHaveProperty('employees');
      const asAdmin = await t.http.get('/v1/context').set('Authorization', admin(company));
      expect(asAdmin.body.employees.length).toBeGreaterThan(0);
    });

    it('connects Fiken through its OAuth consent, learning the company slug', async () => {
      const company = await newCompany();
      const { res } = await connect(company, 'fiken');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Fiken connected');
      expect(await connection(company)).toMatchObject({
        provider: 'fiken',
        status: 'connected',
        externalCompanyId: t.sandbox.for('fiken').company(0).slug,
      });
      const context = await t.http.get('/v1/context').set('Authorization', employee(company));
      expect(context.status).toBe(200);
      expect(context.body.provider).toBe('fiken');
      expect(context.body.vatTypes).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'HIGH', ratePercent: '25' })]),
      );
      const tokens = await t.app.get(ProviderTokenStore).current(company, 'fiken');
      secrets.add(tokens!.accessToken).add(tokens!.refreshToken);
    });

    it('connects Tripletex through the token form when the admin pastes an employee token', async () => {
      const company = await newCompany();
      const started = await startConnect(company, 'tripletex');
      const state = new URL(started.authorizeUrl).searchParams.get('state')!;
      // Only the browser the connection was started in is shown the form.
      expect((await t.http.get('/v1/oauth/tripletex/token-form').query({ state })).status).toBe(400);
      const form = await t.http.get('/v1/oauth/tripletex/token-form').query({ state }).set('Cookie', started.binding);
      expect(form.status).toBe(200);
      expect(form.text).toContain('name="code"');
      expect(form.text).toContain('Employee token');
      // The form belongs to the providers whose definition onboards by token.
      for (const other of ['fiken', 'nope']) {
        const refused = await t.http
          .get(`/v1/oauth/${other}/token-form`)
          .query({ state })
          .set('Cookie', started.binding);
        expect(refused.status).toBe(404);
        expect(refused.text).not.toContain('name="code"');
      }
      const res = await t.http
        .post('/v1/oauth/tripletex/callback')
        .set('Cookie', started.binding)
        .type('form')
        .send({ state, code: tripletexEmployeeToken(1) });
      expect(res.status).toBe(200);
      expect(await connection(company)).toMatchObject({
        provider: 'tripletex',
        externalCompanyId: String(t.sandbox.for('tripletex').company(1).companyId),
      });
      expect(
        (await t.http.get('/v1/oauth/tripletex/token-form').query({ state }).set('Cookie', started.binding)).status,
      ).toBe(400);
    });

    it("answers the API's connect with a one-time console link for the admin, never a consent URL", async () => {
      const company = await newCompany();
      const url = new URL(await connectLink(company, 'fiken'));
      expect(`${url.origin}${url.pathname}`).toBe(new URL('/console/login', t.config.publicUrl).toString());
      expect(url.searchParams.get('connect')).toBe('fiken');
      expect(url.searchParams.has('state')).toBe(false);
      // Whoever opens it is told which company and person it signs in, and nothing starts.
      const page = await t.http.get(`${url.pathname}${url.search}`);
      expect(page.status).toBe(200);
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.text).toContain(company);
      expect(page.text).toContain('ola@demo.no');
      expect(page.text).toContain('to connect Fiken to this company');
      expect(await connection(company)).toBeNull();
    });

    it('finishes a connection only in the browser that started it in the console', async () => {
      const company = await newCompany();
      const started = await startConnect(company, 'fiken');
      const callback = await submitConsent(started.authorizeUrl, 'approve');
      const other = await startConnect(await newCompany(), 'fiken');
      for (const elsewhere of [await t.http.get(callback), await returnTo(callback, other)]) {
        expect(elsewhere.status).toBe(400);
        expect(elsewhere.text).toContain('started in another browser');
      }
      expect(await connection(company)).toBeNull();
      expect((await returnTo(callback, started)).status).toBe(200);
      expect(await connection(company)).toMatchObject({ provider: 'fiken', status: 'connected' });
    });

    it('refuses a validly signed state bound to no browser, and stores nothing', async () => {
      // What the API's connect route used to hand out: a consent link that anyone could finish.
      const company = await newCompany();
      const now = t.clock.now();
      const expiresAt = new Date(now.getTime() + 10 * 60 * 1000);
      const nonce = `unbound-${company}`;
      await t.app
        .get(AuthorizationRequestStore)
        .issue({ nonce, companyId: company, provider: 'tripletex', actor: 'ola@demo.no', expiresAt }, now);
      const state = t.app
        .get(AuthorizationStateSigner)
        .sign({ nonce, companyId: company, provider: 'tripletex', expiresAt: expiresAt.getTime() });
      expect((await t.http.get('/v1/oauth/tripletex/token-form').query({ state })).status).toBe(400);
      const res = await t.http
        .post('/v1/oauth/tripletex/callback')
        .type('form')
        .send({ state, code: tripletexEmployeeToken(2) });
      expect(res.status).toBe(400);
      expect(res.text).toContain('not started from the web console');
      expect(await connection(company)).toBeNull();
    });

    it('stores nothing when the admin refuses consent', async () => {
      for (const provider of ['tripletex', 'fiken'] as const) {
        const company = await newCompany();
        const started = await startConnect(company, provider);
        const res = await returnTo(await submitConsent(started.authorizeUrl, 'deny'), started);
        expect(res.status).toBe(403);
        expect(res.text).toContain('Nothing was stored');
        expect(await connection(company)).toBeNull();
        expect(await storedContext(company)).toBe(0);
      }
    });

    it('refuses a replayed state and leaves the first connection as it was', async () => {
      const company = await newCompany();
      const { callback, started } = await connect(company, 'fiken');
      const before = await connection(company);
      const replay = await returnTo(callback, started);
      expect(replay.status).toBe(400);
      expect(replay.text).toContain('used already');
      expect(await connection(company)).toEqual(before);
    });

    it('refuses an expired state (after 10 minutes) and stores nothing', async () => {
      const company = await newCompany();
      const started = await startConnect(company, 'tripletex');
      const callback = await submitConsent(started.authorizeUrl, 'approve');
      t.clock.advance(11 * 60 * 1000);
      const res = await returnTo(callback, started);
      expect(res.status).toBe(400);
      expect(res.text).toContain('expired');
      expect(await connection(company)).toBeNull();
    });

    it('refuses a forged state, a state for another provider and a missing one', async () => {
      const company = await newCompany();
      const started = await startConnect(company, 'fiken');
      const callback = await submitConsent(started.authorizeUrl, 'approve');
      const url = new URL(callback, 'http://x');
      const state = url.searchParams.get('state')!;
      const [payload, mac] = state.split('.');
      const otherCompany = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), c: 'someone-else' }),
      ).toString('base64url');
      for (const forged of [`${payload}.${mac.slice(0, -2)}AA`, `${otherCompany}.${mac}`, 'garbage']) {
        url.searchParams.set('state', forged);
        const res = await returnTo(`${url.pathname}${url.search}`, started);
        expect(res.status).toBe(400);
        expect(res.text).toContain('not one this service issued');
      }
      url.searchParams.set('state', state);
      expect((await returnTo(`/v1/oauth/tripletex/callback${url.search}`, started)).status).toBe(400);
      expect((await returnTo('/v1/oauth/fiken/callback?code=abc', started)).status).toBe(400);
      expect(await connection(company)).toBeNull();
      // The genuine state was never consumed by the forgeries: it still connects.
      expect((await returnTo(callback, started)).status).toBe(200);
    });

    it('refuses unknown providers, non-admins and a callback for an unknown provider', async () => {
      const company = await newCompany();
      const unknown = await t.http.post('/v1/config/providers/visma/connect').set('Authorization', admin(company));
      expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'not_found' });
      const employeeTry = await t.http
        .post('/v1/config/providers/fiken/connect')
        .set('Authorization', employee(company));
      expect(employeeTry.status).toBe(403);
      expect((await t.http.get('/v1/oauth/visma/callback?code=a&state=b')).status).toBe(404);
    });
  });

  describe('context', () => {
    it('answers 409 provider_not_connected without a connection', async () => {
      const company = await newCompany();
      const res = await t.http.get('/v1/context').set('Authorization', employee(company));
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'provider_not_connected' });
      const refresh = await t.http.post('/v1/config/context/refresh').set('Authorization', admin(company));
      expect({ status: refresh.status, code: refresh.body.code }).toEqual({
        status: 409,
        code: 'provider_not_connected',
      });
    });

    it('refreshes the context for admins', async () => {
      const company = await newCompany();
      await connect(company, 'fiken');
      const first = (await t.http.get('/v1/context').set('Authorization', admin(company))).body;
      t.clock.advance(60_000);
      const res = await t.http.post('/v1/config/context/refresh').set('Authorization', admin(company));
      expect(res.status).toBe(200);
      expect(Date.parse(res.body.fetchedAt)).toBeGreaterThan(Date.parse(first.fetchedAt));
      expect(res.body.accounts).toEqual(first.accounts);
      expect((await t.http.post('/v1/config/context/refresh').set('Authorization', employee(company))).status).toBe(
        403,
      );
    });

    it('refuses query parameters the refresh does not take with 400, a negative limit included', async () => {
      const company = await newCompany();
      await connect(company, 'fiken');
      for (const query of ['limit=-1', 'limit=99999999999999999999', 'x=1']) {
        const res = await t.http.post(`/v1/config/context/refresh?${query}`).set('Authorization', admin(company));
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'validation_failed' });
      }
    });
  });

  describe('employee mapping and conversation facts', () => {
    let company: string;
    let other: string;
    const ola = {
      email: 'Ola@Demo.no',
      role: 'employee',
      externalIdentities: [
        { channel: 'slack', externalId: 'U0001' },
        { channel: 'email', externalId: 'ola@demo.no' },
      ],
    };

    beforeAll(async () => {
      company = await newCompany('emp');
      other = await newCompany('emp');
    });

    const put = (co: string, userId: string, body: object) =>
      t.http.put(`/v1/config/employees/${userId}`).set('Authorization', admin(co)).send(body);

    it('creates, replaces, reads, lists and deletes mappings', async () => {
      const created = await put(company, 'u-ola', ola);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        userId: 'u-ola',
        email: 'ola@demo.no',
        role: 'employee',
        providerEmployeeId: null,
      });
      expect(created.body.externalIdentities).toHaveLength(2);
      const replaced = await put(company, 'u-ola', {
        ...ola,
        role: 'accountant',
        externalIdentities: [{ channel: 'slack', externalId: 'U0001' }],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({
        role: 'accountant',
        externalIdentities: [{ channel: 'slack', externalId: 'U0001' }],
      });
      expect((await t.http.get('/v1/config/employees/u-ola').set('Authorization', admin(company))).body.role).toBe(
        'accountant',
      );

      for (const n of [1, 2, 3])
        expect(
          (await put(company, `u-${n}`, { email: `p${n}@demo.no`, role: 'employee', externalIdentities: [] })).status,
        ).toBe(201);
      const page1 = await t.http.get('/v1/config/employees?limit=2').set('Authorization', admin(company));
      expect(page1.body.items.map((e: { userId: string }) => e.userId)).toEqual(['u-1', 'u-2']);
      const page2 = await t.http
        .get(`/v1/config/employees?limit=2&cursor=${page1.body.nextCursor}`)
        .set('Authorization', admin(company));
      expect(page2.body.items.map((e: { userId: string }) => e.userId)).toEqual(['u-3', 'u-ola']);
      expect(page2.body.nextCursor).toBeNull();

      expect((await t.http.delete('/v1/config/employees/u-3').set('Authorization', admin(company))).status).toBe(204);
      expect((await t.http.get('/v1/config/employees/u-3').set('Authorization', admin(company))).status).toBe(404);
      expect((await t.http.delete('/v1/config/employees/u-3').set('Authorization', admin(company))).status).toBe(404);
    });

    it('keeps emails and external identities unique within the company', async () => {
      const sameEmail = await put(company, 'u-dup', { email: 'OLA@demo.no', role: 'employee', externalIdentities: [] });
      expect({ status: sameEmail.status, code: sameEmail.body.code }).toEqual({
        status: 400,
        code: 'validation_failed',
      });
      const sameSlack = await put(company, 'u-dup', {
        email: 'dup@demo.no',
        role: 'employee',
        externalIdentities: [{ channel: 'slack', externalId: 'U0001' }],
      });
      expect(sameSlack.status).toBe(400);
      expect(sameSlack.body.errors[0].field).toBe('externalIdentities');
      // Another company may use the same email and identity.
      expect((await put(other, 'u-ola', ola)).status).toBe(201);
    });

    it('refuses invalid mappings', async () => {
      expect((await put(company, 'u-x', { ...ola, role: 'boss' })).status).toBe(400);
      expect(
        (
          await put(company, 'u-x', {
            ...ola,
            email: 'x@demo.no',
            externalIdentities: [{ channel: 'fax', externalId: '1' }],
          })
        ).status,
      ).toBe(400);
      expect((await put(company, 'u-x', { ...ola, email: 'x@demo.no', externalIdentities: [], extra: 1 })).status).toBe(
        400,
      );
      expect((await put(company, 'bad id!', { ...ola, email: 'x@demo.no', externalIdentities: [] })).status).toBe(400);
    });

    it('checks the provider employee id against the context', async () => {
      const connected = await newCompany('emp');
      await connect(connected, 'tripletex');
      const context = (await t.http.get('/v1/context').set('Authorization', admin(connected))).body;
      const known = context.employees[0].id as string;
      expect(
        (
          await put(connected, 'u-1', {
            email: 'a@demo.no',
            role: 'employee',
            externalIdentities: [],
            providerEmployeeId: known,
          })
        ).status,
      ).toBe(201);
      const unknown = await put(connected, 'u-2', {
        email: 'b@demo.no',
        role: 'employee',
        externalIdentities: [],
        providerEmployeeId: 'no-such',
      });
      expect({ status: unknown.status, field: unknown.body.errors?.[0]?.field }).toEqual({
        status: 400,
        field: 'providerEmployeeId',
      });
    });

    it('resolves facts by channel identity or by email', async () => {
      const facts = (query: string, co = company) =>
        t.http.get(`/v1/conversation/facts?${query}`).set('Authorization', employee(co));
      const bySlack = await facts('channel=slack&externalId=U0001');
      expect(bySlack.status).toBe(200);
      expect(bySlack.body).toMatchObject({
        userId: 'u-ola',
        email: 'ola@demo.no',
        role: 'accountant',
        company: { id: company, name: `Test ${company}` },
        provider: null,
      });
      expect((await facts('email=OLA%40demo.no')).body.userId).toBe('u-ola');
      for (const query of [
        'channel=slack&externalId=U0001&email=ola%40demo.no',
        '',
        'channel=slack',
        'externalId=U0001',
        'channel=fax&externalId=1',
      ]) {
        const res = await facts(query);
        expect({ query, status: res.status, code: res.body.code }).toEqual({
          query,
          status: 400,
          code: 'validation_failed',
        });
      }
      const unknown = await facts('channel=slack&externalId=U9999');
      expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'not_found' });
      const noFactsPermission = await t.http
        .get('/v1/conversation/facts?email=ola%40demo.no')
        .set('Authorization', `Bearer ${t.tokenFor(company, { role: 'employee', permissions: ['query'] })}`);
      expect(noFactsPermission.status).toBe(403);
    });

    it("never shows one company another company's employees", async () => {
      const stranger = await newCompany('emp');
      expect((await t.http.get('/v1/config/employees/u-1').set('Authorization', admin(stranger))).status).toBe(404);
      expect((await t.http.delete('/v1/config/employees/u-1').set('Authorization', admin(stranger))).status).toBe(404);
      expect((await t.http.get('/v1/config/employees').set('Authorization', admin(stranger))).body.items).toEqual([]);
      expect(
        (
          await t.http
            .get('/v1/conversation/facts?channel=slack&externalId=U0001')
            .set('Authorization', employee(stranger))
        ).status,
      ).toBe(404);
      expect(
        (await t.http.get('/v1/conversation/facts?email=p1%40demo.no').set('Authorization', employee(stranger))).status,
      ).toBe(404);
      expect((await t.http.get('/v1/config/employees/u-1').set('Authorization', admin(company))).status).toBe(200);
    });
  });

  describe('balance', () => {
    let tripletex: string;
    let fiken: string;

    beforeAll(async () => {
      tripletex = await newCompany('bal');
      fiken = await newCompany('bal');
      await connect(tripletex, 'tripletex');
      await connect(fiken, 'fiken');
    });
    afterEach(() => t.sandbox.clearFaults());

    const balance = (co: string, provider: string, query = '') =>
      t.http.get(`/v1/${provider}/balance${query}`).set('Authorization', employee(co));

    it.each(['tripletex', 'fiken'] as const)('reads the %s balances live as decimal strings', async (provider) => {
      const co = provider === 'tripletex' ? tripletex : fiken;
      const res = await balance(co, provider);
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe(provider);
      expect(res.body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(res.body.accounts.length).toBeGreaterThan(0);
      for (const account of res.body.accounts) {
        expect(account).toEqual({
          code: expect.any(String),
          name: expect.any(String),
          balance: expect.stringMatching(DECIMAL),
        });
      }
      const dated = await balance(co, provider, '?date=2026-01-31');
      expect({ status: dated.status, date: dated.body.date }).toEqual({ status: 200, date: '2026-01-31' });
    });

    it('answers 409 provider_not_connected for the other provider or no connection, 404 for an unknown one', async () => {
      const wrong = await balance(tripletex, 'fiken');
      expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 409, code: 'provider_not_connected' });
      const none = await balance(await newCompany('bal'), 'tripletex');
      expect({ status: none.status, code: none.body.code }).toEqual({ status: 409, code: 'provider_not_connected' });
      expect((await balance(tripletex, 'visma')).status).toBe(404);
      expect((await balance(tripletex, 'tripletex', '?date=2026-02-30')).status).toBe(400);
      expect((await balance(tripletex, 'tripletex', '?from=2026-01-01')).status).toBe(400);
    });

    it('maps provider faults to 503, 504 and 502 problems', async () => {
      t.sandbox.addFault({ provider: 'tripletex', path: '/balanceSheet', errorNext: 10 });
      const down = await balance(tripletex, 'tripletex');
      expect({ status: down.status, code: down.body.code }).toEqual({ status: 503, code: 'provider_unavailable' });
      expect(down.headers['content-type']).toMatch(/^application\/problem\+json/);
      t.sandbox.clearFaults();
      expect((await balance(tripletex, 'tripletex')).status).toBe(200);

      t.sandbox.addFault({ provider: 'fiken', path: '/accountBalances', latencyMs: 1_500 });
      const slow = await balance(fiken, 'fiken');
      expect({ status: slow.status, code: slow.body.code }).toEqual({ status: 504, code: 'provider_timeout' });
      t.sandbox.clearFaults();
      expect((await balance(fiken, 'fiken')).status).toBe(200);

      t.sandbox.addFault({ provider: 'fiken', path: '/accountBalances', errorNext: 1, errorStatus: 400 });
      const refused = await balance(fiken, 'fiken');
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 502, code: 'provider_error' });
    });

    it('marks a Fiken connection whose refresh token is revoked and answers 409', async () => {
      const co = await newCompany('bal');
      await connect(co, 'fiken');
      const slug = t.sandbox.for('fiken').company(0).slug;
      t.sandbox.addFault({ provider: 'fiken', companyId: slug, expireTokens: true, revokeRefreshTokens: true });
      const res = await balance(co, 'fiken');
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'provider_not_connected' });
      expect(await connection(co)).toMatchObject({ status: 'needs_reauthorization' });
      // The review channel is told once, however many calls are refused afterwards.
      expect((await balance(co, 'fiken')).status).toBe(409);
      const told: Array<{ target: string; payload: { provider: string; reason: string } }> = await t.app
        .get(DataSource)
        .query(
          `SELECT target, payload FROM notification_outbox WHERE company_id = $1 AND kind = 'provider_reauthorisation_needed'`,
          [co],
        );
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({
        target: 'review',
        payload: { provider: 'fiken', reason: expect.stringContaining('invalid_grant') },
      });
      // Reconnecting clears the mark.
      await connect(co, 'fiken');
      expect(await connection(co)).toMatchObject({ status: 'connected' });
      expect((await balance(co, 'fiken')).status).toBe(200);
      const tokens = await t.app.get(ProviderTokenStore).current(co, 'fiken');
      secrets.add(tokens!.accessToken).add(tokens!.refreshToken);
    });
  });

  describe('secrets', () => {
    it('never lets a provider token out: not in responses, logs, events or outbox, and not in plaintext in the database', async () => {
      const db = t.app.get(DataSource);
      for (const company of companies) {
        const tokens = await t.app.get(ProviderTokenStore).current(company, 'fiken');
        if (tokens) secrets.add(tokens.accessToken).add(tokens.refreshToken);
      }
      const events = await db.query('SELECT * FROM events WHERE company_id = ANY($1)', [companies]);
      const outbox = await db.query('SELECT * FROM notification_outbox WHERE company_id = ANY($1)', [companies]);
      const rows: Array<Record<string, unknown>> = await db.query(
        'SELECT * FROM provider_connections WHERE company_id = ANY($1)',
        [companies],
      );
      expect(rows.length).toBeGreaterThan(5);
      expect(t.responses.length).toBeGreaterThan(50);
      expect(t.logs.length).toBeGreaterThan(50);
      const texts = [...t.responses, ...t.logs, JSON.stringify(events), JSON.stringify(outbox)];
      const raw = Buffer.concat(
        rows.flatMap((row) => Object.values(row).map((v) => (Buffer.isBuffer(v) ? v : Buffer.from(String(v))))),
      );
      for (const secret of secrets) {
        expect(texts.filter((text) => text.includes(secret))).toEqual([]);
        expect(raw.includes(Buffer.from(secret))).toBe(false);
        // Also not base64-encoded (as a Basic auth header would carry it).
        expect(texts.filter((text) => text.includes(Buffer.from(secret).toString('base64')))).toEqual([]);
      }
    });
  });
});
