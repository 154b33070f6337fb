import { startTestApp, type TestApp } from './support/test-app';
import { api, PEOPLE, proposalBody, type Person } from './support/proposals';

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
    const url = new URL((await api(t).post('/v1/console/links', who)).body.url as string);
    const res = await t.http.get(`${url.pathname}${url.search}`);
    return (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
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
      .send({ _csrf: csrfOf(found.text), accountCode: '6550', vatRate: '25', verified: 'on' });
    expect(edited.status).toBe(303);
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
      'PatternRetired',
    ]);
    expect(events.body.items[1]).toMatchObject({
      actor: PEOPLE.accountant.sub,
      channel: 'web',
      data: { pattern: { accountCode: '6550' } },
    });
  });

  it('keeps patterns from managers, as /v1/patterns does', async () => {
    expect((await t.http.get('/console/patterns').set('Cookie', await signIn('manager'))).status).toBe(403);
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
    expect(page.text).toMatch(/data-status="pending"/);
    expect(page.text).not.toContain('hooks.slack.com');
  });
});
