import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { ApiCallLog, ProviderError } from '@app/domain';
import { ProviderHttp } from './provider-http';
import { ResiliencePolicy, resilienceOptions } from './resilience';
import { TransportError } from './transport-error';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

describe('ProviderHttp', () => {
  let server: Server;
  let baseUrl: string;
  let handlers: Handler[];
  let hits: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const handler = handlers[Math.min(hits, handlers.length - 1)];
      hits++;
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    hits = 0;
    handlers = [];
  });

  const json =
    (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
    (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
  const drop: Handler = (req) => req.socket.destroy();
  const hang: Handler = () => undefined;

  function client(overrides: Parameters<typeof resilienceOptions>[0] = {}) {
    const policy = new ResiliencePolicy(
      'fiken',
      resilienceOptions({
        timeoutMs: 5_000,
        retries: 2,
        initialBackoffMs: 5,
        maxBackoffMs: 20,
        breakerThreshold: 50,
        ...overrides,
      }),
    );
    return new ProviderHttp({
      provider: 'fiken',
      policy,
      describeError: (status, body) => ({
        message: String((body as { message?: string } | null)?.message ?? `HTTP ${status}`),
      }),
      rateLimitWaitMs: (response) =>
        response.headers.get('retry-after') ? Number(response.headers.get('retry-after')) * 1000 : undefined,
    });
  }

  const get = () => ({ method: 'GET' as const, url: `${baseUrl}/things?secret=x`, recordedPath: '/things' });

  it('retries a 5xx and returns the later success, recording every attempt', async () => {
    handlers = [json(503, { message: 'down' }), json(200, { ok: true })];
    const log = new ApiCallLog();
    const response = await client().send(get(), { recorder: log });
    expect(response.body).toEqual({ ok: true });
    expect(log.calls).toEqual([
      { method: 'GET', path: '/things', status: 503 },
      { method: 'GET', path: '/things', status: 200 },
    ]);
  });

  it('gives up after the retries with provider_unavailable (503, transient)', async () => {
    handlers = [json(500, { message: 'Intern feil' })];
    const log = new ApiCallLog();
    const error = await client()
      .send(get(), { recorder: log })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_unavailable', transient: true, status: 500 });
    expect((error as Error).message).toContain('Intern feil');
    expect(log.calls).toHaveLength(3);
  });

  it('does not retry a 4xx and keeps the provider message (provider_error, permanent)', async () => {
    handlers = [json(400, { message: 'Ugyldig konto' })];
    const log = new ApiCallLog();
    const error = await client()
      .send(get(), { recorder: log })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'provider_error', transient: false, status: 400 });
    expect((error as Error).message).toContain('Ugyldig konto');
    expect(hits).toBe(1);
  });

  it('times out a silent provider with provider_timeout (504), recording status 0', async () => {
    handlers = [hang];
    const log = new ApiCallLog();
    const error = await client({ retries: 1, timeoutMs: 100 })
      .send(get(), { recorder: log })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'provider_timeout', transient: true });
    expect(log.calls).toEqual([
      { method: 'GET', path: '/things', status: 0 },
      { method: 'GET', path: '/things', status: 0 },
    ]);
  });

  it('retries a dropped connection', async () => {
    handlers = [drop, json(200, { ok: 1 })];
    const log = new ApiCallLog();
    await expect(client().send(get(), { recorder: log })).resolves.toMatchObject({ status: 200 });
    expect(log.calls.map((c) => c.status)).toEqual([0, 200]);
  });

  it('waits for Retry-After on 429 before retrying', async () => {
    handlers = [json(429, { message: 'slow down' }, { 'Retry-After': '1' }), json(200, {})];
    const started = Date.now();
    const log = new ApiCallLog();
    await client().send(get(), { recorder: log });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('reports 429 that outlasts the retries as provider_unavailable with retryAfterSeconds', async () => {
    handlers = [json(429, { message: 'slow down' }, { 'Retry-After': '0' })];
    const log = new ApiCallLog();
    const error = await client()
      .send(get(), { recorder: log })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      reason: 'rate_limited',
      transient: true,
      retryAfterSeconds: 1,
    });
  });

  it('does not wait for a 429 longer than the call accepts: fails at once, windowClosed, nothing retried', async () => {
    handlers = [json(429, { message: 'slow down' }, { 'Retry-After': '30' }), json(200, {})];
    const started = Date.now();
    const error = await client()
      .send(get(), { recorder: new ApiCallLog(), maxRateLimitWaitMs: 1_000 })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(hits).toBe(1);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      reason: 'rate_limited',
      transient: true,
      windowClosed: true,
      outcomeUnknown: false,
      retryAfterSeconds: 30,
    });
    // The mark survives the booking id a later step adds (book, then attach).
    expect((error as ProviderError).withBookingId('v-1')).toMatchObject({ windowClosed: true, bookingId: 'v-1' });
  });

  it('waits for a 429 within what the call accepts, and retries', async () => {
    handlers = [json(429, { message: 'slow down' }, { 'Retry-After': '1' }), json(200, {})];
    await expect(
      client().send(get(), { recorder: new ApiCallLog(), maxRateLimitWaitMs: 2_000 }),
    ).resolves.toMatchObject({ status: 200 });
    expect(hits).toBe(2);
  });

  it('does not resend a create whose outcome is unknown, but does resend one refused with 429', async () => {
    const log = new ApiCallLog();
    const post = { method: 'POST' as const, url: `${baseUrl}/purchases`, recordedPath: '/purchases', body: '{}' };
    handlers = [json(500, {})];
    const error = await client()
      .send(post, { recorder: log, retryMode: 'not-processed-only' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ outcomeUnknown: true });
    expect(hits).toBe(1);

    hits = 0;
    handlers = [json(429, {}, { 'Retry-After': '0' }), json(201, null)];
    await expect(client().send(post, { recorder: log, retryMode: 'not-processed-only' })).resolves.toMatchObject({
      status: 201,
    });
    expect(hits).toBe(2);
  });

  it('opens the circuit after repeated failures and then fails fast without calling', async () => {
    handlers = [json(502, {})];
    const http = client({ retries: 0, breakerThreshold: 3, breakerHalfOpenAfterMs: 60_000 });
    const log = new ApiCallLog();
    for (let i = 0; i < 3; i++) {
      await expect(http.send(get(), { recorder: log })).rejects.toMatchObject({ code: 'provider_unavailable' });
    }
    const error = await http.send(get(), { recorder: log }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      reason: 'circuit_open',
      transient: true,
      retryAfterSeconds: 60,
    });
    expect(hits).toBe(3);
  });

  it('does not open the circuit on client errors', async () => {
    handlers = [json(404, {})];
    const http = client({ retries: 0, breakerThreshold: 2 });
    const log = new ApiCallLog();
    for (let i = 0; i < 4; i++) {
      await expect(http.send(get(), { recorder: log })).rejects.toMatchObject({ code: 'provider_error', status: 404 });
    }
    expect(hits).toBe(4);
  });
});
