import type { Response as SuperagentResponse } from 'supertest';
import { DataSource } from 'typeorm';
import { ConsoleSessionStore } from '@app/domain';
import { EventSealer } from '@app/persistence';
import { testKekSource } from '../libs/persistence/src/testing/test-keyring';
import { startTestApp, type TestApp } from './support/test-app';
import { api, expectProblem, PEOPLE, proposalBody, type Person } from './support/proposals';
import { signInWithLink } from './support/console-sign-in';

/** The web console over HTTP: login links, the session cookie, CSRF, and review through the use cases. */
describe('web console', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The test keyring: the proposal page's chain check unwraps the shared test database's chain key.
    t = await startTestApp({ env: { KEK_SOURCE: testKekSource() } });
  });

  afterAll(async () => {
    await t.close();
  });

  async function linkFor(who: Person, company = t.company): Promise<string> {
    const res = await api(t, company).post('/v1/console/links', who);
    expect(res.status).toBe(200);
    return res.body.url as string;
  }

  /** Opens a login link and signs in on its page; returns the session cookie ("name=value"). */
  async function signIn(who: Person = 'accountant', company = t.company): Promise<string> {
    const { cookie, location } = await signInWithLink(t.http, await linkFor(who, company));
    expect(location).toBe('/console/review');
    return cookie;
  }

  function csrfOf(page: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(page);
    if (!match) throw new Error('no CSRF field on the page');
    return match[1];
  }

  it('hands a manager, an accountant and an admin a one-time link valid for 5 minutes, never an employee', async () => {
    for (const who of ['manager', 'accountant', 'admin'] as const) {
      const res = await api(t).post('/v1/console/links', who);
      expect(res.status).toBe(200);
      expect(res.body.url).toMatch(/\/console\/login\?token=[\w-]{43}$/);
      expect(new Date(res.body.expiresAt).getTime() - t.clock.now().getTime()).toBe(5 * 60 * 1000);
    }
    expectProblem(await api(t).post('/v1/console/links', 'employee'), 403, 'role_insufficient');
    expectProblem(await t.http.post('/v1/console/links'), 401, 'invalid_token');
  });

  /** The login link's token, and a sign-in POST of it with the given headers. */
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const postSignIn = (token: string, headers: Record<string, string>) =>
    t.http.post('/console/login').set(headers).type('form').send({ token });
  const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };

  it('opens a link to a page naming the company and the person, which neither signs in nor uses the link', async () => {
    const link = await linkFor('admin');
    const url = new URL(link);
    for (let i = 0; i < 2; i += 1) {
      const res = await t.http.get(`${url.pathname}${url.search}`);
      expect(res.status).toBe(200);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toContain("form-action 'self'");
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(res.text).toContain(t.company);
      expect(res.text).toContain(PEOPLE.admin.sub);
      expect(res.text).toContain('<form method="post" action="/console/login">');
      expect(res.text).toContain(`name="token" value="${tokenOf(link)}"`);
    }
    // The link was not used by opening its page: the page's button still signs in.
    expect((await postSignIn(tokenOf(link), SAME_ORIGIN)).status).toBe(303);
  });

  it('signs in only on a POST from its own page: a cross-site post is refused and leaves the link unused', async () => {
    const token = tokenOf(await linkFor('accountant'));
    const own = new URL(t.config.publicUrl).origin;
    const attempts: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'cross-site', Origin: own },
      { Origin: 'https://attacker.example' },
      { Origin: 'null' },
      {},
    ];
    for (const headers of attempts) {
      const refused = await postSignIn(token, headers);
      expect({ headers, status: refused.status }).toEqual({ headers, status: 403 });
      expect(refused.headers['set-cookie']).toBeUndefined();
      expect(refused.text).toContain('own sign-in page');
    }
    // A browser without Sec-Fetch-Site that names the service's origin is let through.
    const res = await postSignIn(token, { Origin: own });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/console/review');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie that lives as long as the session', async () => {
    const res = await postSignIn(tokenOf(await linkFor('accountant')), SAME_ORIGIN);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(cookie).toMatch(/^console_session=[\w-]{43}; Path=\/; Expires=.+; HttpOnly; SameSite=Strict$/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('refuses a used link and an expired one', async () => {
    const used = await linkFor('accountant');
    expect((await postSignIn(tokenOf(used), SAME_ORIGIN)).status).toBe(303);
    const usedUrl = new URL(used);
    for (const again of [
      await t.http.get(`${usedUrl.pathname}${usedUrl.search}`),
      await postSignIn(tokenOf(used), SAME_ORIGIN),
    ]) {
      expect(again.status).toBe(401);
      expect(again.text).toContain('used already');
      expect(again.headers['set-cookie']).toBeUndefined();
    }

    const late = await linkFor('accountant');
    t.clock.advance(5 * 60 * 1000);
    const lateUrl = new URL(late);
    for (const expired of [
      await t.http.get(`${lateUrl.pathname}${lateUrl.search}`),
      await postSignIn(tokenOf(late), SAME_ORIGIN),
    ]) {
      expect(expired.status).toBe(401);
      expect(expired.text).toContain('expired');
    }
    const unknown = await postSignIn('not-a-link', SAME_ORIGIN);
    expect(unknown.status).toBe(401);
    expect(unknown.text).toContain('not one the service issued');
  });

  it('shows nothing of the console without a session', async () => {
    for (const path of ['/console', '/console/review', '/console/proposals/x', '/console/proposals/x/receipt']) {
      const res = await t.http.get(path);
      expect(res.status).toBe(401);
      expect(res.text).toContain('Sign in to the console');
    }
    expect((await t.http.get('/console/review').set('Cookie', 'console_session=forged')).status).toBe(401);
  });

  it('serves pages under a CSP without inline script, scripts and styles from the service', async () => {
    const cookie = await signIn();
    const res = await t.http.get('/console/review').set('Cookie', cookie);
    expect(res.status).toBe(200);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>/);
    const js = await t.http.get('/console/assets/console.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await t.http.get('/console/assets/..%2Fconsole.ts')).status).toBe(404);
  });

  it('serves an icon: the one every page links, and /favicon.ico where browsers look unasked', async () => {
    const page = await t.http.get('/console/review').set('Cookie', await signIn());
    expect(page.text).toContain('<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml" />');
    expect(page.headers['content-security-policy']).toContain("img-src 'self'");
    // The body as bytes, whatever its type (superagent parses only text and JSON).
    const bytes = (res: SuperagentResponse, done: (error: Error | null, body: Buffer) => void) => {
      const stream = res as unknown as NodeJS.ReadableStream;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => done(null, Buffer.concat(chunks)));
    };
    const svg = await t.http.get('/console/assets/favicon.svg').buffer(true).parse(bytes);
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(String(svg.body)).toContain('<svg');
    const ico = await t.http.get('/favicon.ico').buffer(true).parse(bytes);
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    // An ICO file's header: reserved 0, type 1 (icon).
    expect([...(ico.body as Buffer).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  });

  it('approves with a correction through the use case, as the session’s person on the channel web', async () => {
    const submitted = await api(t).submit(proposalBody({ merchant: `Kontorland ${Date.now()}` }));
    expect(submitted.body.status).toBe('PROPOSED');
    const cookie = await signIn('accountant');
    const queue = await t.http.get('/console/review').set('Cookie', cookie);
    expect(queue.text).toContain(submitted.body.merchant);

    const res = await t.http
      .post(`/console/proposals/${submitted.body.id}/approve`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfOf(queue.text), accountCode: '6800', vatRate: '25' });
    expect(res.status).toBe(303);

    const proposal = await api(t).get(`/v1/proposals/${submitted.body.id}`, 'accountant');
    expect(proposal.body).toMatchObject({
      status: 'APPROVED',
      approvedBy: PEOPLE.accountant.sub,
      corrections: { accountCode: '6800' },
    });
    const approved = proposal.body.events.find((e: { type: string }) => e.type === 'Approved');
    expect(approved).toMatchObject({ actor: PEOPLE.accountant.sub, channel: 'web' });
  });

  it('rejects with a reason, and refuses a rejection without one', async () => {
    const submitted = await api(t).submit(proposalBody({ merchant: `Rejectable ${Date.now()}` }));
    const cookie = await signIn('accountant');
    const csrf = csrfOf((await t.http.get('/console/review').set('Cookie', cookie)).text);
    const empty = await t.http
      .post(`/console/proposals/${submitted.body.id}/reject`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, reason: ' ' });
    expect(empty.status).toBe(400);

    const res = await t.http
      .post(`/console/proposals/${submitted.body.id}/reject`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, reason: 'Private purchase' });
    expect(res.status).toBe(303);
    const proposal = await api(t).get(`/v1/proposals/${submitted.body.id}`, 'accountant');
    expect(proposal.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'Private purchase' });
  });

  it('refuses a state-changing request without the CSRF token, changing nothing', async () => {
    const submitted = await api(t).submit(proposalBody({ merchant: `Csrf ${Date.now()}` }));
    const cookie = await signIn('accountant');
    for (const csrf of [undefined, 'forged']) {
      const res = await t.http
        .post(`/console/proposals/${submitted.body.id}/approve`)
        .set('Cookie', cookie)
        .type('form')
        .send(csrf ? { _csrf: csrf } : {});
      expect(res.status).toBe(403);
      expect(res.text).toContain('form token');
    }
    expect((await api(t).get(`/v1/proposals/${submitted.body.id}`, 'accountant')).body.status).toBe('PROPOSED');
  });

  it('keeps the separation of duties: a person cannot approve what they submitted', async () => {
    const submitted = await api(t).submit(proposalBody({ merchant: `Own ${Date.now()}` }), 'accountant');
    const cookie = await signIn('accountant');
    const csrf = csrfOf((await t.http.get('/console/review').set('Cookie', cookie)).text);
    const res = await t.http
      .post(`/console/proposals/${submitted.body.id}/approve`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf });
    expect(res.status).toBe(403);
    expect((await api(t).get(`/v1/proposals/${submitted.body.id}`, 'accountant')).body.status).toBe('PROPOSED');
  });

  it('lets a manager look but not decide, as the API does', async () => {
    const submitted = await api(t).submit(proposalBody({ merchant: `Managed ${Date.now()}` }));
    const cookie = await signIn('manager');
    const queue = await t.http.get('/console/review').set('Cookie', cookie);
    expect(queue.status).toBe(200);
    expect(queue.text).not.toContain(`/console/proposals/${submitted.body.id}/approve`);
    const res = await t.http
      .post(`/console/proposals/${submitted.body.id}/approve`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfOf(queue.text) });
    expect(res.status).toBe(403);
  });

  it('keeps a session inside its company', async () => {
    const other = await t.newCompany('other');
    const theirs = await api(t, other).submit(proposalBody({ merchant: `Theirs ${Date.now()}` }));
    const cookie = await signIn('accountant');
    const queue = await t.http.get('/console/review').set('Cookie', cookie);
    expect(queue.text).not.toContain(theirs.body.merchant);
    expect((await t.http.get(`/console/proposals/${theirs.body.id}`).set('Cookie', cookie)).status).toBe(404);
    const res = await t.http
      .post(`/console/proposals/${theirs.body.id}/approve`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfOf(queue.text) });
    expect(res.status).toBe(404);
    expect((await api(t, other).get(`/v1/proposals/${theirs.body.id}`, 'accountant')).body.status).toBe('PROPOSED');
  });

  it('shows a proposal’s chain with actors and channels, and its receipt', async () => {
    const submitted = await api(t).submit(proposalBody({ merchant: `Chain ${Date.now()}` }));
    const cookie = await signIn('accountant');
    const page = await t.http.get(`/console/proposals/${submitted.body.id}`).set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Proposed');
    expect(page.text).toContain(PEOPLE.employee.sub);
    expect(page.text).toMatch(/data-chain="pending"/);
    const receipt = await t.http.get(`/console/proposals/${submitted.body.id}/receipt`).set('Cookie', cookie);
    expect(receipt.status).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
  });

  it('checks the hash chain links of the proposal’s own events, and shows an altered one as broken, naming it', async () => {
    // A company of its own: the event altered below stays out of the other suites' companies.
    const company = await t.newCompany('console-chain');
    const tampered = await api(t, company).submit(proposalBody({ merchant: 'Altered AS' }));
    const intact = await api(t, company).submit(proposalBody({ merchant: 'Intact AS', amount: '120.00' }));
    expect((await api(t, company).post(`/v1/review/${tampered.body.id}/approve`, 'accountant', {})).status).toBe(200);
    const cookie = await signIn('accountant', company);
    // The page's text with its whitespace collapsed.
    const page = async (id: string) => {
      const res = await t.http.get(`/console/proposals/${id}`).set('Cookie', cookie);
      return { status: res.status, text: res.text.replace(/\s+/g, ' ') };
    };

    const unsealed = await page(tampered.body.id);
    expect(unsealed.text).toMatch(/data-chain="pending"/);
    expect(unsealed.text).toContain('Not verified yet: the 2 event(s) of this proposal were recorded moments ago');
    expect(unsealed.text.match(/data-link="pending"/g)).toHaveLength(2);

    await t.app.get(EventSealer).sealPending({ companyId: company });
    const sealed = await page(tampered.body.id);
    expect(sealed.text).toContain('Hash chain verified for the 2 sealed event(s) of this proposal');
    expect(sealed.text.match(/data-link="verified"/g)).toHaveLength(2);

    // As the database's owner, past the append-only triggers: the approval's actor rewritten.
    const [approved] = (await t.app
      .get(DataSource)
      .query(`SELECT id FROM events WHERE company_id = $1 AND proposal_id = $2 AND type = 'Approved'`, [
        company,
        tampered.body.id,
      ])) as { id: string }[];
    await t.app.get(DataSource).transaction(async (tx) => {
      await tx.query('ALTER TABLE events DISABLE TRIGGER USER');
      await tx.query(`UPDATE events SET actor = 'eve@example.no' WHERE id = $1`, [approved.id]);
      await tx.query('ALTER TABLE events ENABLE TRIGGER USER');
    });

    const broken = await page(tampered.body.id);
    expect(broken.status).toBe(200);
    expect(broken.text).toMatch(/data-chain="broken" role="alert"/);
    expect(broken.text).toMatch(
      /<li> ?Approved \(sequence 2, chain index \d+\): the stored event does not match its seal: the event was altered ?<\/li>/,
    );
    expect(broken.text).toMatch(/<li class="event broken" data-link="broken" ?> ?<h3>Approved<\/h3>/);
    expect(broken.text).toMatch(/<li class="event" data-link="verified" ?> ?<h3>Proposed<\/h3>/);
    // Another proposal's page checks its own events only.
    expect((await page(intact.body.id)).text).toContain('Hash chain verified for the 1 sealed event(s)');
  });

  it('ends the session at logout and when the company’s sessions are ended', async () => {
    const cookie = await signIn('accountant');
    const csrf = csrfOf((await t.http.get('/console/review').set('Cookie', cookie)).text);
    expect((await t.http.post('/console/logout').set('Cookie', cookie).type('form').send({ _csrf: csrf })).status).toBe(
      200,
    );
    expect((await t.http.get('/console/review').set('Cookie', cookie)).status).toBe(401);

    const other = await signIn('admin');
    await t.app.get(ConsoleSessionStore).endCompanySessions(t.company);
    expect((await t.http.get('/console/review').set('Cookie', other)).status).toBe(401);
  });
});
