import { startTestApp, type TestApp } from './support/test-app';
import { api, PEOPLE, proposalBody, type Person } from './support/proposals';
import { ACCOUNTANT, MANAGER, hostSandbox, startJobsApp, type HostedSandbox, type JobsApp } from './support/jobs-app';
import type { Claims } from './support/gateway-keys';
import { signInWithLink } from './support/console-sign-in';

/** The console's patterns and checks pages: the same handlers and rules as their API routes. */
describe('web console: patterns and checks', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_SANDBOX: 'on' } });
  });

  afterAll(async () => {
    await t.close();
  });

  async function signIn(who: Person): Promise<string> {
    return (await signInWithLink(t.http, (await api(t).post('/v1/console/links', who)).body.url as string)).cookie;
  }

  const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)![1];

  it('lists and searches patterns, edits one and retires it, each an audited event on the channel web', async () => {
    const merchant = `Clas Ohlson ${Date.now()}`;
    const created = await api(t).post('/v1/patterns', 'admin', {
      merchantName: merchant,
      accountCode: '6540',
      vatRate: '25',
    });
    expect(created.status).toBe(201);
    const cookie = await signIn('accountant');

    const found = await t.http.get('/console/patterns').query({ merchant }).set('Cookie', cookie);
    expect(found.status).toBe(200);
    expect(found.text).toContain(merchant);
    const none = await t.http.get('/console/patterns').query({ merchant: 'No Such Merchant' }).set('Cookie', cookie);
    expect(none.text).not.toContain(merchant);

    const edited = await t.http
      .post(`/console/patterns/${created.body.id}/edit`)
      .set('Cookie', cookie)
      .type('form')
      .send({
        _csrf: csrfOf(found.text),
        accountCode: '6550',
        vatRate: '25',
        vatTreatment: 'reverse_charge',
        supplierOrganizationNumber: '923 609 016',
        verified: 'on',
      });
    expect(edited.status).toBe(303);
    const shown = await t.http.get('/console/patterns').query({ merchant }).set('Cookie', cookie);
    expect(shown.text).toContain('<span data-vat-treatment="reverse_charge">Reverse charge</span>');
    expect(shown.text).toContain('data-supplier="923609016"');
    const badOrg = await t.http
      .post(`/console/patterns/${created.body.id}/edit`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfOf(found.text), accountCode: '6550', vatRate: '25', supplierOrganizationNumber: '923609017' });
    expect(badOrg.status).toBe(400);
    expect(badOrg.text).toContain('supplierOrganizationNumber');
    const forgotten = await t.http
      .post(`/console/patterns/${created.body.id}/edit`)
      .set('Cookie', cookie)
      .type('form')
      .send({
        _csrf: csrfOf(found.text),
        accountCode: '6550',
        vatRate: '25',
        vatTreatment: '',
        supplierOrganizationNumber: '',
      });
    expect(forgotten.status).toBe(303);
    const retired = await t.http
      .post(`/console/patterns/${created.body.id}/retire`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfOf(found.text) });
    expect(retired.status).toBe(303);

    const events = await api(t).get(`/v1/events?correlationId=${created.body.id}`, 'manager');
    expect(events.body.items.map((e: { type: string }) => e.type)).toEqual([
      'PatternSaved',
      'PatternSaved',
      'PatternSaved',
      'PatternRetired',
    ]);
    expect(events.body.items[1]).toMatchObject({
      actor: PEOPLE.accountant.sub,
      channel: 'web',
      data: {
        pattern: { accountCode: '6550', vatTreatment: 'reverse_charge', supplierOrganizationNumber: '923609016' },
      },
    });
    // Empty fields: the pattern forgets them (not known again).
    expect(events.body.items[2].data.pattern).toMatchObject({ vatTreatment: null, supplierOrganizationNumber: null });
  });

  it('keeps patterns from managers, as /v1/patterns does', async () => {
    const refused = await t.http.get('/console/patterns').set('Cookie', await signIn('manager'));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Only an accountant or an administrator can see and change the merchant patterns.');
  });

  it('shows the checks page, and a check on demand explains a missing connection', async () => {
    const cookie = await signIn('manager');
    const page = await t.http.get('/console/checks').set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('has not run for this company yet');
    const run = await t.http.get('/console/checks?run=overdue-invoices').set('Cookie', cookie);
    expect(run.status).toBe(409);
    expect(run.text).toContain('Provider not connected');
  });

  it('shows what the service sent to the company’s channels, with the delivery state', async () => {
    const merchant = `Messaged ${Date.now()}`;
    expect((await api(t).submit(proposalBody({ merchant }))).status).toBe(201);
    expect((await api(t).outbox()).length).toBeGreaterThan(0);
    const page = await t.http.get('/console/messages').set('Cookie', await signIn('manager'));
    expect(page.status).toBe(200);
    expect(page.text).toContain(merchant);
    expect(page.text).toMatch(/<tr data-status="pending">\s*<td data-label="When">/);
    expect(page.text).not.toContain('hooks.slack.com');
  });
});

/**
 * The patterns page's suggestions from the company's booking history: read from the sandbox,
 * confirmed through the handlers of /v1/patterns/suggestions, under their permission.
 */
describe('web console: suggestions from the history', () => {
  let hosted: HostedSandbox;
  let t: JobsApp;
  let company: string;
  let otherCompany: string;

  beforeAll(async () => {
    hosted = await hostSandbox({ seed: 13, companies: 2, entriesPerCompany: 10, invoicesPerCompany: 2 });
    t = await startJobsApp({ hosted, env: { PROVIDER_RETRIES: '1', PROVIDER_TIMEOUT_MS: '5000' } });
    company = await t.newCompany('sg');
    otherCompany = await t.newCompany('sg-other');
    await t.connect(company, 'tripletex', 0);
    await t.connect(otherCompany, 'tripletex', 1);
  });

  afterAll(async () => {
    await t?.close();
    await hosted?.close();
  });

  const bearer = (who: Claims, forCompany = company) => `Bearer ${t.token(forCompany, who)}`;
  const NO_RULES: Claims = { ...ACCOUNTANT, sub: 'per@demo.no', permissions: ['solve', 'query', 'facts', 'monitor'] };

  async function signIn(who: Claims, forCompany = company): Promise<string> {
    const link = await t.http.post('/v1/console/links').set('Authorization', bearer(who, forCompany));
    expect(link.status).toBe(200);
    return (await signInWithLink(t.http, link.body.url as string)).cookie;
  }

  async function page(cookie: string, path = '/console/patterns') {
    const res = await t.http.get(path).set('Cookie', cookie);
    expect(res.status).toBe(200);
    return { text: res.text, csrf: /name="_csrf" value="([^"]+)"/.exec(res.text)![1] };
  }

  const post = (path: string, cookie: string, form: URLSearchParams) =>
    t.http.post(path).set('Cookie', cookie).type('form').send(form.toString());

  const shownSuggestions = (text: string) => [...text.matchAll(/data-suggestion="([^"]+)"/g)].map((m) => m[1]);

  async function pending(forCompany = company): Promise<{ id: string; merchantKey: string }[]> {
    const res = await t.http
      .get('/v1/patterns/suggestions?limit=200')
      .set('Authorization', bearer(ACCOUNTANT, forCompany));
    expect(res.status).toBe(200);
    return res.body.items;
  }

  it('lists the suggestions after the history is read, and confirming one makes it a pattern audited on the channel web', async () => {
    const cookie = await signIn(ACCOUNTANT);
    const before = await page(cookie);
    expect(before.text).toContain('data-import="none"');
    expect(shownSuggestions(before.text)).toEqual([]);

    const refreshed = await post(
      '/console/patterns/suggestions/refresh',
      cookie,
      new URLSearchParams({ _csrf: before.csrf }),
    );
    expect(refreshed.status).toBe(303);
    const suggestions = await pending();
    expect(refreshed.headers.location).toBe(`/console/patterns?done=refreshed&count=${suggestions.length}`);
    expect(suggestions.length).toBeGreaterThan(1);

    const after = await page(cookie, refreshed.headers.location as string);
    expect(after.text).toContain('data-import="done"');
    expect(after.text).toContain(`${suggestions.length} suggestions made or refreshed`);
    expect(shownSuggestions(after.text)).toEqual(suggestions.map((s) => s.id));
    const fjordkraft = suggestions.find((s) => s.merchantKey === 'fjordkraft')!;
    const item = after.text.slice(after.text.indexOf(`data-suggestion="${fjordkraft.id}"`)).split('</li>')[0];
    expect(item).toContain('Fjordkraft AS');
    expect(item).toMatch(/6340[^<]*· VAT 25 %/);
    expect(item).toMatch(/\d+ of the merchant’s \d+ bookings/);
    expect(item).toMatch(/\d+,\d{2}\s*kr to [\d\s]+,\d{2}\s*kr/);

    const confirmed = await post(
      '/console/patterns/suggestions/confirm',
      cookie,
      new URLSearchParams({ _csrf: after.csrf, ids: fjordkraft.id }),
    );
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.location).toBe('/console/patterns?done=confirmed&count=1');

    expect((await pending()).map((s) => s.id)).not.toContain(fjordkraft.id);
    const listed = await page(cookie, '/console/patterns?merchant=Fjordkraft');
    expect(shownSuggestions(listed.text)).not.toContain(fjordkraft.id);
    const pattern = listed.text.slice(listed.text.indexOf(`data-pattern="${fjordkraft.id}"`)).split('</li>')[0];
    expect(pattern).toContain(`confirmed by ${ACCOUNTANT.sub}`);
    expect(pattern).toContain('suggested by the history');
    const events = await t.http
      .get(`/v1/events?type=PatternSaved&correlationId=${fjordkraft.id}`)
      .set('Authorization', bearer(ACCOUNTANT));
    expect(
      events.body.items.map((e: { actor: string; channel: string; data: { cause: string } }) => [
        e.data.cause,
        e.actor,
        e.channel,
      ]),
    ).toEqual([
      ['suggested', ACCOUNTANT.sub, 'web'],
      ['suggestion_confirmed', ACCOUNTANT.sub, 'web'],
    ]);

    const rest = (await pending()).map((s) => s.id);
    const shown = await page(cookie);
    const button = shown.text.indexOf(`Confirm all ${rest.length} shown`);
    const confirmAll = shown.text.slice(shown.text.lastIndexOf('<form', button), button);
    const form = new URLSearchParams(
      [...confirmAll.matchAll(/name="(_csrf|ids)" value="([^"]+)"/g)].map((m): [string, string] => [m[1], m[2]]),
    );
    expect(form.getAll('ids')).toEqual(rest);
    const all = await post('/console/patterns/suggestions/confirm', cookie, form);
    expect(all.headers.location).toBe(`/console/patterns?done=confirmed&count=${rest.length}`);
    expect(await pending()).toEqual([]);
    expect((await page(cookie)).text).toContain('No suggestion waits for confirmation.');
  });

  it('refuses a confirmation without the CSRF token', async () => {
    const [suggestion] = await refreshedSuggestions(otherCompany);
    const cookie = await signIn(ACCOUNTANT, otherCompany);
    const refused = await post(
      '/console/patterns/suggestions/confirm',
      cookie,
      new URLSearchParams({ ids: suggestion }),
    );
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('The form was refused');
    expect((await pending(otherCompany)).map((s) => s.id)).toContain(suggestion);
  });

  it('lets no one without the rules permission see, confirm or refresh suggestions', async () => {
    const [suggestion] = await refreshedSuggestions(otherCompany);
    for (const who of [MANAGER, NO_RULES]) {
      const cookie = await signIn(who, otherCompany);
      expect((await t.http.get('/console/patterns').set('Cookie', cookie)).status).toBe(403);
      const { csrf } = await page(cookie, '/console/review');
      const form = new URLSearchParams({ _csrf: csrf, ids: suggestion });
      expect((await post('/console/patterns/suggestions/confirm', cookie, form)).status).toBe(403);
      expect((await post('/console/patterns/suggestions/refresh', cookie, form)).status).toBe(403);
    }
    expect((await pending(otherCompany)).map((s) => s.id)).toContain(suggestion);
  });

  it('keeps one company’s suggestions from another company’s session', async () => {
    const theirs = await refreshedSuggestions(otherCompany);
    const intruder = await t.newCompany('sg-intruder');
    await t.connect(intruder, 'tripletex', 0);
    const cookie = await signIn(ACCOUNTANT, intruder);
    const own = await page(cookie);
    const refreshed = await post(
      '/console/patterns/suggestions/refresh',
      cookie,
      new URLSearchParams({ _csrf: own.csrf }),
    );
    expect(refreshed.status).toBe(303);
    const shown = shownSuggestions((await page(cookie)).text);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((id) => theirs.includes(id))).toEqual([]);

    const confirm = await post(
      '/console/patterns/suggestions/confirm',
      cookie,
      new URLSearchParams({ _csrf: own.csrf, ids: theirs[0] }),
    );
    expect(confirm.status).toBe(404);
    expect((await pending(otherCompany)).map((s) => s.id)).toEqual(theirs);
  });

  it('overrules the books for good by correcting a suggestion, while a retired one comes back with the next read', async () => {
    const corrected = await t.newCompany('sg-correct');
    await t.connect(corrected, 'tripletex', 1);
    const cookie = await signIn(ACCOUNTANT, corrected);
    const first = await page(cookie);
    await post('/console/patterns/suggestions/refresh', cookie, new URLSearchParams({ _csrf: first.csrf }));
    const [toCorrect, toRetire] = await pending(corrected);
    const saved = await post(
      `/console/patterns/${toCorrect.id}/edit`,
      cookie,
      new URLSearchParams({ _csrf: first.csrf, accountCode: '6810', vatRate: '25', verified: 'on' }),
    );
    expect(saved.status).toBe(303);
    const retired = await post(
      `/console/patterns/${toRetire.id}/retire`,
      cookie,
      new URLSearchParams({ _csrf: first.csrf }),
    );
    expect(retired.status).toBe(303);

    const again = await post(
      '/console/patterns/suggestions/refresh',
      cookie,
      new URLSearchParams({ _csrf: first.csrf }),
    );
    expect(again.status).toBe(303);
    const keys = (await pending(corrected)).map((s) => s.merchantKey);
    expect(keys).not.toContain(toCorrect.merchantKey);
    expect(keys).toContain(toRetire.merchantKey);
    const events = await t.http
      .get(`/v1/events?type=PatternSaved&correlationId=${toCorrect.id}`)
      .set('Authorization', bearer(ACCOUNTANT, corrected));
    expect(events.body.items.at(-1)).toMatchObject({
      channel: 'web',
      data: { cause: 'edited', pattern: { accountCode: '6810', verified: true } },
    });
  });

  it('shows where a read of the history stopped, and reads on from there', async () => {
    const interrupted = await t.newCompany('sg-outage');
    await t.connect(interrupted, 'tripletex', 1);
    const cookie = await signIn(ACCOUNTANT, interrupted);
    const { csrf } = await page(cookie);
    const outage = hosted.sandbox.control.addFault({ provider: 'tripletex', errorRate: 1, errorStatus: 502 });
    try {
      const failed = await post('/console/patterns/suggestions/refresh', cookie, new URLSearchParams({ _csrf: csrf }));
      expect(failed.status).toBe(503);
    } finally {
      hosted.sandbox.control.removeFault(outage.id);
    }
    const stopped = await page(cookie);
    expect(stopped.text).toMatch(
      /data-import="failed"[^>]*>\s*Reading the history from Tripletex stopped after 0 bookings:\s+[^<]*502/,
    );

    const resumed = await post('/console/patterns/suggestions/refresh', cookie, new URLSearchParams({ _csrf: csrf }));
    expect(resumed.status).toBe(303);
    const done = await page(cookie);
    expect(done.text).toContain('data-import="done"');
    expect(shownSuggestions(done.text)).toEqual((await pending(interrupted)).map((s) => s.id));
  });

  it('says so when the company has no provider to read the history from', async () => {
    const unconnected = await t.newCompany('sg-none');
    const cookie = await signIn(ACCOUNTANT, unconnected);
    const { csrf } = await page(cookie);
    const refused = await post('/console/patterns/suggestions/refresh', cookie, new URLSearchParams({ _csrf: csrf }));
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Provider not connected');
  });

  /** The company's pending suggestions' ids, reading its history first when none is pending. */
  async function refreshedSuggestions(forCompany: string): Promise<string[]> {
    if ((await pending(forCompany)).length === 0) {
      const res = await t.http
        .post('/v1/patterns/suggestions/refresh')
        .set('Authorization', bearer(ACCOUNTANT, forCompany));
      expect(res.status).toBe(200);
    }
    const ids = (await pending(forCompany)).map((s) => s.id);
    expect(ids.length).toBeGreaterThan(0);
    return ids;
  }
});
