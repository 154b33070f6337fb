import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { getStorageToken } from '@nestjs/throttler';
import { BoundedRedisThrottlerStorage, MemoryThrottlerStorage } from '../apps/accounting-api/src/http/rate-limit';
import { startTestApp, type TestApp } from './support/test-app';
import { ProbeController } from './support/probe.controller';
import { REDIS_TEST_URL, redisAnswers } from './support/redis';

describe('the HTTP edge', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ controllers: [ProbeController], env: { RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(async () => t.close());

  const auth = () => ({ Authorization: `Bearer ${t.token()}` });

  it('answers validation failures with 400 validation_failed and one entry per field', async () => {
    const res = await t.http
      .post('/v1/probe/echo')
      .set(auth())
      .send({ amount: 12.5, note: 'far too long a note', extra: 1 });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'validation_failed', status: 400, instance: '/v1/probe/echo' });
    const fields = (res.body.errors as Array<{ field: string }>).map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['amount', 'extra', 'note']));
  });

  it('answers malformed JSON with 400 validation_failed', async () => {
    const res = await t.http
      .post('/v1/probe/echo')
      .set(auth())
      .set('Content-Type', 'application/json')
      .send('{"amount": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('passes a valid body through', async () => {
    const res = await t.http.post('/v1/probe/echo').set(auth()).send({ amount: '12.50' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ amount: '12.50' });
  });

  it('answers an unknown route with 404 not_found as problem+json', async () => {
    const res = await t.http.get('/v1/nothing-here').set(auth());
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('answers a body over 10 MiB with 413 payload_too_large', async () => {
    const big = JSON.stringify({ amount: '1.00', note: 'x'.repeat(10 * 1024 * 1024 + 10) });
    const res = await t.http.post('/v1/probe/echo').set(auth()).set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('answers a non-JSON body with 415 unsupported_media_type', async () => {
    const res = await t.http.post('/v1/probe/echo').set(auth()).set('Content-Type', 'text/plain').send('amount=1');
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('turns an unexpected error into 500 internal_error without stack or secret, with an error id', async () => {
    const res = await t.http.get('/v1/probe/boom').set(auth());
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'internal_error', status: 500 });
    expect(typeof res.body.errorId).toBe('string');
    expect(res.text).not.toMatch(/hunter2|password|at .*\.ts|stack/i);
  });

  it('echoes a sane X-Request-Id and puts it in problems', async () => {
    const res = await t.http.get('/v1/whoami').set('X-Request-Id', 'req-123');
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(res.body.requestId).toBe('req-123');
  });

  it('replaces an unsafe X-Request-Id with a fresh one', async () => {
    const res = await t.http.get('/v1/whoami').set('X-Request-Id', 'bad id with spaces');
    expect(res.headers['x-request-id']).not.toBe('bad id with spaces');
    expect(res.body.requestId).toBe(res.headers['x-request-id']);
  });

  it('reports health with the database, and liveness without a token', async () => {
    const ready = await t.http.get('/health');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'up' } });
    expect((await t.http.get('/health/live')).body).toEqual({ status: 'ok' });
    expect((await t.http.get('/health/ready')).status).toBe(200);
  });

  it('exposes Prometheus metrics by route and status', async () => {
    await t.http.get('/v1/whoami').set(auth());
    await t.http.get('/v1/whoami'); // 401
    await t.http.get('/v1/nowhere').set(auth()); // 404
    const res = await t.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/v1\/whoami",status="200"\} \d+/);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/whoami"\}/);
    expect(res.text).toMatch(/route="\/v1\/whoami",status="401"/);
    expect(res.text).toMatch(/route="unmatched",status="404"/);
    expect(res.text).toMatch(/^nodejs_eventloop_busy_seconds_total \d/m);
  });

  it("serves the OpenAPI document with the bearer scheme and each route's permission and role", async () => {
    const res = await t.http.get('/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as {
      components: { securitySchemes: Record<string, { scheme: string }> };
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.components.securitySchemes.gateway).toMatchObject({ scheme: 'bearer' });
    expect(doc.paths['/v1/whoami']!.get).toMatchObject({ 'x-permission': 'any', 'x-min-role': 'employee' });
    expect(doc.paths['/v1/probe/config']!.get).toMatchObject({ 'x-permission': 'config', 'x-min-role': 'admin' });
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1/') || path.startsWith('/v1/probe/undeclared')) continue;
      for (const operation of Object.values(operations)) {
        expect(operation['x-permission']).toBeDefined();
      }
    }
    expect((await t.http.get('/docs')).status).toBe(200);
  });
});

describe('the rate limit per company and sub', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => t.close());

  it('answers the request over the limit with 429 rate_limited and Retry-After, per (company, sub)', async () => {
    const ola = t.token({ sub: 'ola@demo.no' });
    for (let i = 0; i < 3; i++)
      expect((await t.http.get('/v1/whoami').set('Authorization', `Bearer ${ola}`)).status).toBe(200);
    const res = await t.http.get('/v1/whoami').set('Authorization', `Bearer ${ola}`);
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);

    // Another employee of the same company, and the same email in another company, are unaffected.
    expect(
      (await t.http.get('/v1/whoami').set('Authorization', `Bearer ${t.token({ sub: 'kari@demo.no' })}`)).status,
    ).toBe(200);
    const other = await t.newCompany();
    expect(
      (
        await t.http
          .get('/v1/whoami')
          .set('Authorization', `Bearer ${t.token({ sub: 'ola@demo.no', company_id: other })}`)
      ).status,
    ).toBe(200);
  });

  it('counts every route of the API in one limit', async () => {
    const mona = t.token({ sub: 'mona@demo.no' });
    expect((await t.http.get('/v1/whoami').set('Authorization', `Bearer ${mona}`)).status).toBe(200);
    expect((await t.http.get('/v1/events').set('Authorization', `Bearer ${mona}`)).status).toBe(200);
    expect((await t.http.get('/v1/whoami').set('Authorization', `Bearer ${mona}`)).status).toBe(200);

    expect((await t.http.get('/v1/events').set('Authorization', `Bearer ${mona}`)).status).toBe(429);
  });

  it('counts one person once whatever the letter case of the email', async () => {
    for (const sub of ['Siri@Demo.no', 'SIRI@DEMO.NO', 'siri@DEMO.no']) {
      expect((await t.http.get('/v1/whoami').set('Authorization', `Bearer ${t.token({ sub })}`)).status).toBe(200);
    }
    const res = await t.http.get('/v1/whoami').set('Authorization', `Bearer ${t.token({ sub: 'siri@demo.no' })}`);
    expect(res.status).toBe(429);
  });

  it('does not limit health checks', async () => {
    for (let i = 0; i < 5; i++) expect((await t.http.get('/health/live')).status).toBe(200);
  });
});

/** Two instances of the service with the same gateway key and company, limited to 3 requests a minute. */
function twoInstances(env: Record<string, string> = {}) {
  const instances: { first: TestApp; second: TestApp } = {} as never;
  beforeAll(async () => {
    instances.first = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', ...env } });
    instances.second = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', ...env }, beside: instances.first });
  });
  afterAll(async () => {
    await instances.second?.close();
    await instances.first?.close();
  });
  return instances;
}

async function expectOneLimit(
  { first, second }: { first: TestApp; second: TestApp },
  storage: abstract new (...args: never[]) => unknown,
): Promise<void> {
  expect(first.app.get(getStorageToken())).toBeInstanceOf(storage);
  expect(second.app.get(getStorageToken())).toBeInstanceOf(storage);
  const token = first.token({ sub: 'ola@demo.no' });
  const whoami = (app: TestApp) => app.http.get('/v1/whoami').set('Authorization', `Bearer ${token}`);

  expect((await whoami(first)).status).toBe(200);
  expect((await whoami(second)).status).toBe(200);
  expect((await whoami(first)).status).toBe(200);

  const refused = await whoami(second);
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ code: 'rate_limited' });
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect((await whoami(first)).status).toBe(429);
}

describe('the rate limit of two instances without REDIS_URL', () => {
  const instances = twoInstances();

  it('is counted in memory, per instance: no database round trip, and each instance allows the limit', async () => {
    const { first, second } = instances;
    expect(first.app.get(getStorageToken())).toBeInstanceOf(MemoryThrottlerStorage);
    const token = first.token({ sub: 'ola@demo.no' });
    const whoami = (app: TestApp) => app.http.get('/v1/whoami').set('Authorization', `Bearer ${token}`);
    for (let i = 0; i < 3; i++) expect((await whoami(first)).status).toBe(200);
    expect((await whoami(first)).status).toBe(429);
    // The other instance has counted none of them (docs/operations.md: N instances, N × the limit).
    for (let i = 0; i < 3; i++) expect((await whoami(second)).status).toBe(200);
    expect((await whoami(second)).status).toBe(429);
  });
});

/**
 * A TCP server that accepts connections and never answers (a Redis that hangs), or, `ready`, one
 * that answers the client's ready check (INFO) and then never answers a command (a Redis too slow).
 */
async function silentServer(ready = false): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (ready) {
      socket.on('data', (data) => {
        if (/info/i.test(String(data))) socket.write('$9\r\nloading:0\r\n');
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (a Redis that is down). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `redis://127.0.0.1:${port}`;
}

describe('the rate limit when Redis does not answer (REDIS_URL)', () => {
  for (const [what, redis] of [
    ['hangs', () => silentServer()],
    ['is connected but does not answer a command', () => silentServer(true)],
    ['is down', async () => ({ url: await closedPort(), close: async () => undefined })],
  ] as const) {
    it(`answers within the bound and still limits, per instance, when Redis ${what}`, async () => {
      const fake = await redis();
      const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3', REDIS_URL: fake.url } });
      try {
        expect(t.app.get(getStorageToken())).toBeInstanceOf(BoundedRedisThrottlerStorage);
        const token = t.token({ sub: 'ola@demo.no' });
        for (let i = 0; i < 3; i++) {
          const started = Date.now();
          const res = await t.http.get('/v1/whoami').set('Authorization', `Bearer ${token}`);
          expect(res.status).toBe(200);
          // REDIS_TIMEOUT_MS is 100 ms; the rest is the request itself on a busy machine.
          expect(Date.now() - started).toBeLessThan(1_000);
        }
        const refused = await t.http.get('/v1/whoami').set('Authorization', `Bearer ${token}`);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ code: 'rate_limited' });
      } finally {
        await t.close();
        await fake.close();
      }
    });
  }
});

// Runs where a Redis answers (the local one, or REDIS_TEST_URL).
(redisAnswers() ? describe : describe.skip)('the rate limit of two instances on one Redis (REDIS_URL)', () => {
  const instances = twoInstances({ REDIS_URL: REDIS_TEST_URL });

  it('is one limit: the hits on either instance count, and both refuse past it', async () => {
    await expectOneLimit(instances, BoundedRedisThrottlerStorage);
  });
});
