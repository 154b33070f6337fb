import type { Server } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from './support/test-app';
import { ProbeController } from './support/probe.controller';
import { listen, rawRequest } from './support/raw-http';
import { PEOPLE, proposalBody } from './support/proposals';

/** 10 MB of `[[[…]]]`: what a 33-byte brotli body inflated to. */
function nestedArrays(bytes: number): Buffer {
  const half = Math.floor(bytes / 2);
  return Buffer.concat([Buffer.alloc(half, '['), Buffer.alloc(half, ']')]);
}

describe('request bodies: nothing is read before the token, nothing is inflated', () => {
  let t: TestApp;
  let port: number;
  const bomb = brotliCompressSync(nestedArrays(10_000_000));

  beforeAll(async () => {
    t = await startTestApp({ controllers: [ProbeController], env: { RATE_LIMIT_PER_MINUTE: '10000' } });
    port = await listen(t.app.getHttpServer() as Server);
  });
  afterAll(async () => t.close());

  const employee = () => t.token(PEOPLE.employee);

  it('refuses a brotli bomb with 415 unsupported_media_type, with or without a token', async () => {
    expect(bomb.length).toBeLessThan(64);
    const withToken: Record<string, string> = { Authorization: `Bearer ${employee()}` };
    for (const headers of [{}, withToken]) {
      const res = await rawRequest(port, {
        method: 'POST',
        path: '/v1/proposals',
        headers: {
          'Content-Type': 'application/json',
          'Content-Encoding': 'br',
          'Content-Length': bomb.length,
          ...headers,
        },
        body: bomb,
      });
      expect(res.status).toBe(415);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    }
  });

  it('refuses gzip and any other Content-Encoding but identity', async () => {
    const gz = gzipSync(JSON.stringify({ amount: '1.00' }));
    for (const encoding of ['gzip', 'deflate', 'GZIP', 'identity, gzip']) {
      const res = await t.http
        .post('/v1/probe/echo')
        .set('Authorization', `Bearer ${employee()}`)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send(gz);
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('unsupported_media_type');
    }
    const plain = await t.http
      .post('/v1/probe/echo')
      .set('Authorization', `Bearer ${employee()}`)
      .set('Content-Encoding', 'identity')
      .send({ amount: '1.00' });
    expect(plain.status).toBe(201);
  });

  it('answers 401 to a 10 MB body without a token before the body is sent', async () => {
    // Only the first 64 KiB of the declared 10 MB are ever sent: the answer must not wait for the rest.
    const res = await rawRequest(port, {
      method: 'POST',
      path: '/v1/proposals',
      headers: { 'Content-Type': 'application/json', 'Content-Length': 10_000_000 },
      body: nestedArrays(10_000_000).subarray(0, 64 * 1024),
      end: false,
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'invalid_token' });
  });

  it('answers 403 to a token without the route’s permission before the body is sent', async () => {
    const res = await rawRequest(port, {
      method: 'POST',
      path: '/v1/proposals',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': 1_000_000,
        Authorization: `Bearer ${t.token({ ...PEOPLE.employee, permissions: ['query'] })}`,
      },
      body: Buffer.from('{"kind":"expense","merchant":"'),
      end: false,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'permission_denied' });
  });

  it('keeps answering /health/live while bombs and 10 MB bodies without a token arrive', async () => {
    const attacks = [
      ...Array.from({ length: 3 }, () =>
        rawRequest(port, {
          method: 'POST',
          path: '/v1/proposals',
          headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br', 'Content-Length': bomb.length },
          body: bomb,
        }),
      ),
      ...Array.from({ length: 3 }, () =>
        rawRequest(port, {
          method: 'POST',
          path: '/v1/proposals',
          headers: { 'Content-Type': 'application/json' },
          body: nestedArrays(10_000_000),
        }),
      ),
    ];
    const live = await Promise.all(Array.from({ length: 5 }, () => t.http.get('/health/live')));
    expect(live.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const outcomes = await Promise.all(attacks);
    expect(outcomes.map((r) => r.status)).toEqual([415, 415, 415, 401, 401, 401]);
  });

  it('gives the proposal submission the large limit and every other route 64 KiB', async () => {
    const auth = { Authorization: `Bearer ${employee()}` };
    const small = await t.http
      .post('/v1/probe/echo')
      .set(auth)
      .send({ amount: '1.00', note: 'x'.repeat(70 * 1024) });
    expect(small.status).toBe(413);
    expect(small.body).toMatchObject({ code: 'payload_too_large' });

    // Over 64 KiB but within the large limit: read and validated (a description that is too long).
    const large = await t.http
      .post('/v1/proposals')
      .set(auth)
      .send(proposalBody({ description: 'x'.repeat(70 * 1024) }));
    expect(large.status).toBe(400);
    expect(large.body.code).toBe('validation_failed');

    // A declared length over the limit is refused without waiting for the body.
    const declared = await rawRequest(port, {
      method: 'POST',
      path: '/v1/probe/echo',
      headers: { 'Content-Type': 'application/json', 'Content-Length': 1_000_000, ...auth },
      body: Buffer.from('{"amount":'),
      end: false,
    });
    expect(declared.status).toBe(413);
  });

  it('refuses JSON nested deeper than 32 levels with 400 validation_failed', async () => {
    const deep = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
    const res = await t.http
      .post('/v1/probe/echo')
      .set('Authorization', `Bearer ${employee()}`)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(res.body.detail).toMatch(/deeper than 32/);

    // Brackets inside strings are text, not nesting.
    const text = await t.http
      .post('/v1/probe/echo')
      .set('Authorization', `Bearer ${employee()}`)
      .send({ amount: '1.00', note: '[[[[{{{{' });
    expect(text.status).toBe(201);
  });

  it('refuses __proto__, constructor and prototype keys anywhere in a body with 400', async () => {
    for (const body of [
      '{"amount":"1.00","__proto__":{"admin":true}}',
      '{"amount":"1.00","constructor":{"prototype":{"admin":true}}}',
      '{"kind":"expense","receipt":{"__proto__":{"x":1}}}',
    ]) {
      const res = await t.http
        .post('/v1/proposals')
        .set('Authorization', `Bearer ${employee()}`)
        .set('Content-Type', 'application/json')
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(JSON.stringify(res.body.errors)).toMatch(/__proto__|constructor/);
    }
  });
});
