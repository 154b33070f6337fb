import request from 'supertest';
import { SANDBOX_FIKEN_DEMO_SLUG, tripletexEmployeeToken } from '../constants';
import { fikenAuthorize, fikenClientAuth, testSandbox, tripletexSession } from '@app/testing';

const voucherQuery = { dateFrom: '2026-01-01', dateTo: '2026-02-01', fields: 'id' };

async function tripletexSetup(options: Parameters<typeof testSandbox>[0] = {}) {
  const sandbox = testSandbox(options);
  const auth = await tripletexSession(sandbox.app);
  const get = () =>
    request(sandbox.app).get('/tripletex/v2/ledger/voucher').query(voucherQuery).set('Authorization', auth);
  return { ...sandbox, auth, get };
}

async function bookTripletex(app: Parameters<typeof request>[0], auth: string) {
  const accounts = (
    await request(app).get('/tripletex/v2/ledger/account').query({ fields: 'id,number' }).set('Authorization', auth)
  ).body.values as { id: number; number: number }[];
  const id = (n: number) => accounts.find((a) => a.number === n)?.id;
  return request(app)
    .post('/tripletex/v2/ledger/voucher')
    .set('Authorization', auth)
    .send({
      date: '2026-03-10',
      description: 'Kontorrekvisita',
      externalVoucherNumber: 'p-9',
      postings: [
        { row: 1, account: { id: id(6800) }, amountGross: 100 },
        { row: 1, account: { id: id(1920) }, amountGross: -100 },
      ],
    });
}

describe('Sandbox faults', () => {
  it('adds latency to matching calls', async () => {
    const { get, control } = await tripletexSetup();
    control.addFault({ provider: 'tripletex', latencyMs: 120 });
    const started = Date.now();
    expect((await get()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('injects 5xx for the next N calls with the Tripletex error body, then recovers', async () => {
    const { get, control } = await tripletexSetup();
    control.addFault({ provider: 'tripletex', errorNext: 2, errorStatus: 503 });
    const first = await get();
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ status: 503, code: 1000, requestId: expect.any(String) });
    expect((await get()).status).toBe(503);
    expect((await get()).status).toBe(200);
    expect(control.faults()).toHaveLength(0);
  });

  it('injects 5xx at a rate, deterministically from the seed', async () => {
    const run = async () => {
      const { get, control } = await tripletexSetup();
      control.addFault({ provider: 'tripletex', errorRate: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await get()).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });

  it("answers 429 without X-Rate-Limit-Reset by default, as Tripletex's own, or with it when asked", async () => {
    const { get, control } = await tripletexSetup();
    control.addFault({ provider: 'tripletex', rateLimit: { next: 1 } });
    const bare = await get();
    expect(bare.status).toBe(429);
    expect(bare.headers['x-rate-limit-remaining']).toBe('0');
    expect(bare.headers['x-rate-limit-reset']).toBeUndefined();
    control.addFault({ provider: 'tripletex', rateLimit: { next: 1, omitRetryHeader: false } });
    const limited = await get();
    expect(limited.status).toBe(429);
    expect(limited.headers['x-rate-limit-reset']).toBe('2');
    expect((await get()).status).toBe(200);
  });

  it('answers Fiken 429 with Retry-After, or without it when asked', async () => {
    const { app, control } = testSandbox();
    const tokens = await fikenAuthorize(app);
    const call = () =>
      request(app)
        .get(`/fiken/api/v2/companies/${SANDBOX_FIKEN_DEMO_SLUG}/accounts`)
        .set('Authorization', `Bearer ${tokens.access_token}`);
    control.addFault({ provider: 'fiken', rateLimit: { next: 1 } });
    expect((await call()).headers['retry-after']).toBe('1');
    control.addFault({ provider: 'fiken', rateLimit: { next: 1, omitRetryHeader: true } });
    const bare = await call();
    expect(bare.status).toBe(429);
    expect(bare.headers['retry-after']).toBeUndefined();
  });

  it('drops the connection before handling: nothing is booked', async () => {
    const { app, auth, control } = await tripletexSetup();
    control.addFault({ provider: 'tripletex', method: 'POST', path: '/ledger/voucher', dropConnections: { next: 1 } });
    await expect(bookTripletex(app, auth)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(control.for('tripletex').bookings(0)).toHaveLength(0);
    expect((await bookTripletex(app, auth)).status).toBe(201);
    expect(control.for('tripletex').bookings(0)).toHaveLength(1);
  });

  it('drops the connection after handling: the booking exists but the answer is lost', async () => {
    const { app, auth, control } = await tripletexSetup();
    control.addFault({
      provider: 'tripletex',
      method: 'POST',
      path: '/ledger/voucher',
      dropConnections: { next: 1, afterHandling: true },
    });
    await expect(bookTripletex(app, auth)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(control.for('tripletex').bookings(0)).toHaveLength(1);
    const found = await request(app)
      .get('/tripletex/v2/ledger/voucher/>externalVoucherNumber')
      .query({ externalVoucherNumber: 'p-9' })
      .set('Authorization', auth);
    expect(found.body.fullResultSize).toBe(1);
    expect(control.calls({ provider: 'tripletex', method: 'POST' })[0]).toMatchObject({ dropped: true, status: 201 });
  });

  it('hides a booking from the next search, then finds it again', async () => {
    const { app, auth, control } = await tripletexSetup();
    expect((await bookTripletex(app, auth)).status).toBe(201);
    control.addFault({ provider: 'tripletex', path: '/ledger/voucher', hideResults: { next: 1 } });
    const search = () =>
      request(app)
        .get('/tripletex/v2/ledger/voucher/>externalVoucherNumber')
        .query({ externalVoucherNumber: 'p-9' })
        .set('Authorization', auth);
    const hidden = await search();
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ fullResultSize: 0, values: [] });
    expect((await search()).body.fullResultSize).toBe(1);
    expect(control.faults()).toHaveLength(0);
  });

  it('drops Fiken purchases after handling the same way', async () => {
    const { app, control } = testSandbox();
    const tokens = await fikenAuthorize(app);
    control.addFault({ provider: 'fiken', path: '/purchases', dropConnections: { next: 1, afterHandling: true } });
    const attempt = request(app)
      .post(`/fiken/api/v2/companies/${SANDBOX_FIKEN_DEMO_SLUG}/purchases`)
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .send({
        date: '2026-03-10',
        kind: 'cash_purchase',
        paid: true,
        currency: 'NOK',
        paymentAccount: '1920:10001',
        lines: [{ description: 'x', netPrice: 400, vat: 100, account: '6800', vatType: 'HIGH' }],
      });
    await expect(attempt).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(control.for('fiken').bookings(SANDBOX_FIKEN_DEMO_SLUG)).toHaveLength(1);
  });

  it('expires tokens on demand: Tripletex sessions and Fiken access tokens give 401, Fiken refresh still works', async () => {
    const { app, auth, get, control } = await tripletexSetup();
    const fiken = await fikenAuthorize(app);
    control.addFault({ provider: 'all', expireTokens: true });
    expect((await get()).status).toBe(401);
    const fikenCall = await request(app)
      .get('/fiken/api/v2/companies')
      .set('Authorization', `Bearer ${fiken.access_token}`);
    expect(fikenCall.status).toBe(401);
    const refreshed = await request(app)
      .post('/fiken/oauth/token')
      .set('Authorization', fikenClientAuth())
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: fiken.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(auth).toBeTruthy();
  });

  it('invalidates Fiken refresh tokens on demand', async () => {
    const { app, control } = testSandbox();
    const fiken = await fikenAuthorize(app);
    control.addFault({ provider: 'fiken', revokeRefreshTokens: true });
    const refreshed = await request(app)
      .post('/fiken/oauth/token')
      .set('Authorization', fikenClientAuth())
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: fiken.refresh_token });
    expect(refreshed.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('injects faults on the Fiken token endpoint', async () => {
    const { app, control } = testSandbox();
    const fiken = await fikenAuthorize(app);
    control.addFault({ provider: 'fiken', path: '/oauth/token', errorNext: 1 });
    const refresh = () =>
      request(app)
        .post('/fiken/oauth/token')
        .set('Authorization', fikenClientAuth())
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: fiken.refresh_token });
    expect((await refresh()).status).toBe(500);
    expect((await refresh()).status).toBe(200);
  });

  it('scopes faults to one company', async () => {
    const { app, control } = testSandbox({ companies: 2 });
    const demo = await tripletexSession(app);
    const other = await tripletexSession(app, tripletexEmployeeToken(1));
    control.addFault({
      provider: 'tripletex',
      companyId: String(control.for('tripletex').company(1).companyId),
      errorRate: 1,
    });
    const call = (auth: string) => request(app).get('/tripletex/v2/department').set('Authorization', auth);
    expect((await call(demo)).status).toBe(200);
    expect((await call(other)).status).toBe(500);
    control.clearFaults();
    control.addFault({ provider: 'tripletex', companyId: tripletexEmployeeToken(0), expireTokens: true });
    expect((await call(demo)).status).toBe(401);
    expect((await call(other)).status).toBe(200);
  });
});

describe('Sandbox control', () => {
  it('counts calls per route and filters the call log', async () => {
    const { get, control } = await tripletexSetup();
    await get();
    await get();
    expect(control.callCounts()['tripletex GET /v2/ledger/voucher']).toBe(2);
    expect(control.calls({ provider: 'tripletex', path: '/ledger/voucher' })).toHaveLength(2);
    expect(control.calls({ provider: 'tripletex', path: '/ledger/voucher' })[0]).toMatchObject({
      status: 200,
      company: String(control.for('tripletex').company(0).companyId),
    });
  });

  it('accepts faults and resets over HTTP under /_sandbox', async () => {
    const { app, get, control } = await tripletexSetup();
    const added = await request(app).post('/_sandbox/faults').send({ provider: 'tripletex', errorNext: 1 });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: expect.any(String), provider: 'tripletex' });
    expect((await request(app).post('/_sandbox/faults').send({ provider: 'moon' })).status).toBe(400);
    expect((await get()).status).toBe(500);
    expect((await request(app).get('/_sandbox/calls').query({ provider: 'tripletex', status: 500 })).body).toHaveLength(
      1,
    );
    expect((await request(app).post('/_sandbox/reset')).status).toBe(204);
    expect(control.calls()).toHaveLength(0);
    expect((await get()).status).toBe(401);
  });

  it('shows bookings over HTTP and issues Fiken tokens without the browser step', async () => {
    const { app } = testSandbox();
    const issued = await request(app).post('/_sandbox/fiken/tokens').send({ company: SANDBOX_FIKEN_DEMO_SLUG });
    expect(issued.status).toBe(201);
    const bearer = `Bearer ${issued.body.access_token as string}`;
    await request(app)
      .post(`/fiken/api/v2/companies/${SANDBOX_FIKEN_DEMO_SLUG}/purchases`)
      .set('Authorization', bearer)
      .send({
        date: '2026-03-10',
        kind: 'cash_purchase',
        paid: true,
        currency: 'NOK',
        paymentAccount: '1920:10001',
        lines: [{ description: 'x', netPrice: 400, vat: 100, account: '6800', vatType: 'HIGH' }],
      });
    const bookings = await request(app).get(`/_sandbox/bookings/fiken/${SANDBOX_FIKEN_DEMO_SLUG}`);
    expect(bookings.body).toHaveLength(1);
  });

  it('dispatches the per-provider control routes by kind, and names the kinds for an unknown one', async () => {
    const { app, control } = testSandbox();
    expect(control.kinds()).toEqual(['tripletex', 'fiken']);
    const tripletex = await request(app).get('/_sandbox/tripletex/companies');
    expect(tripletex.body[1]).toEqual(control.for('tripletex').company(1));
    const fiken = await request(app).get('/_sandbox/fiken/companies');
    expect(fiken.body[0]).toMatchObject({ index: 0, slug: SANDBOX_FIKEN_DEMO_SLUG });
    const token = await request(app).post('/_sandbox/tripletex/tokens').send({ company: 1 });
    expect(token.status).toBe(201);
    expect(token.body).toEqual({ employeeToken: control.for('tripletex').employeeToken(1) });
    const moon = await request(app).get('/_sandbox/moon/companies');
    expect(moon.status).toBe(404);
    expect(moon.body.message).toBe('provider must be one of tripletex, fiken');
    expect((await request(app).get('/_sandbox/bookings/moon/0')).status).toBe(404);
    expect((await request(app).get('/_sandbox/bookings/fiken/no-such-company')).status).toBe(404);
    expect(() => control.for('moon')).toThrow('No sandbox provider moon');
  });

  it('serves and closes a real HTTP server', async () => {
    const { start } = testSandbox();
    const running = await start();
    try {
      expect(running.tripletexApi).toBe(`${running.url}/tripletex/v2`);
      const response = await fetch(`${running.url}/`);
      expect(((await response.json()) as { fikenApi: string }).fikenApi).toBe(running.fikenApi);
    } finally {
      await running.close();
    }
  });
});
