import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { exchange, providerDispatcher } from './undici-transport';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local server whose answer the test sets; it notes each request's headers and socket. */
async function startServer(): Promise<{
  url: string;
  server: Server;
  seen: IncomingMessage[];
  handle(handler: Handler): void;
}> {
  let handler: Handler = (_req, res) => res.end();
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    seen,
    handle: (h) => (handler = h),
  };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

const signal = () => AbortSignal.timeout(2_000);

describe('the undici transport', () => {
  let dispatcher: Dispatcher;
  const get = (request: { url: string; headers?: Record<string, string> }, signal: AbortSignal) =>
    exchange(dispatcher, { method: 'GET', ...request }, signal);

  let a: Awaited<ReturnType<typeof startServer>>;
  let b: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    dispatcher = providerDispatcher();
    a = await startServer();
    b = await startServer();
  });
  afterAll(async () => {
    await dispatcher.close();
    await stop(a.server);
    await stop(b.server);
  });
  beforeEach(() => {
    a.seen.length = 0;
    b.seen.length = 0;
  });

  it('answers the status, the headers and the body as text, Norwegian letters included', async () => {
    a.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-rate-limit-remaining': '7' });
      res.end(JSON.stringify({ description: 'Kjøp av blåbær' }));
    });
    const response = await get({ url: `${a.url}/things?page=1`, headers: { Authorization: 'Bearer t' } }, signal());
    expect(response.status).toBe(200);
    expect(response.headers.get('x-rate-limit-remaining')).toBe('7');
    expect(JSON.parse(await response.text())).toEqual({ description: 'Kjøp av blåbær' });
    expect(a.seen[0]!.url).toBe('/things?page=1');
    expect(a.seen[0]!.headers.authorization).toBe('Bearer t');
  });

  it('asks for gzip and inflates it', async () => {
    a.handle((req, res) => {
      const body = JSON.stringify({
        values: Array.from({ length: 500 }, (_, i) => ({ id: i, text: 'æøå'.repeat(10) })),
      });
      if (req.headers['accept-encoding']?.includes('gzip')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(body));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      }
    });
    const response = await get({ url: `${a.url}/big` }, signal());
    expect(a.seen[0]!.headers['accept-encoding']).toContain('gzip');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect((JSON.parse(await response.text()) as { values: unknown[] }).values).toHaveLength(500);
  });

  it('keeps connections alive between requests to one host', async () => {
    a.handle((_req, res) => res.end('{}'));
    for (const path of ['/one', '/two', '/three', '/four'])
      await (await get({ url: `${a.url}${path}` }, signal())).text();
    expect(a.seen).toHaveLength(4);
    // undici frees a connection a tick after the body ends, so a pool may hold two; never one per request.
    expect(new Set(a.seen.map((req) => req.socket)).size).toBeLessThanOrEqual(2);
  });

  it('follows a redirect on the same origin with the Authorization header', async () => {
    a.handle((req, res) => {
      if (req.url === '/old') res.writeHead(302, { location: '/new' }).end();
      else res.end('{"moved":true}');
    });
    const response = await get({ url: `${a.url}/old`, headers: { Authorization: 'Bearer t' } }, signal());
    expect(await response.text()).toBe('{"moved":true}');
    expect(a.seen.map((req) => [req.url, req.headers.authorization])).toEqual([
      ['/old', 'Bearer t'],
      ['/new', 'Bearer t'],
    ]);
  });

  it('drops the Authorization header when a redirect leaves the origin', async () => {
    a.handle((_req, res) => res.writeHead(307, { location: `${b.url}/elsewhere` }).end());
    b.handle((_req, res) => res.end('{}'));
    const response = await get({ url: `${a.url}/old`, headers: { Authorization: 'Bearer t' } }, signal());
    expect(response.status).toBe(200);
    expect(b.seen[0]!.url).toBe('/elsewhere');
    expect(b.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('fails with the connection error code when nothing listens', async () => {
    const closed = await startServer();
    await stop(closed.server);
    await expect(get({ url: `${closed.url}/x` }, signal())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('stops at the signal while the body is still arriving', async () => {
    a.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"values": [');
    });
    const controller = new AbortController();
    const response = await get({ url: `${a.url}/slow` }, controller.signal);
    const text = response.text();
    controller.abort();
    await expect(text).rejects.toThrow();
  });

  it('fails the body when the server cuts a gzip response off', async () => {
    a.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': '1000' });
      res.write(gzipSync('{"values": [1, 2, 3]}').subarray(0, 10), () => req.socket.destroy());
    });
    const response = await get({ url: `${a.url}/cut` }, signal());
    await expect(response.text()).rejects.toThrow();
  });

  it("closes an idle connection before the server's announced keep-alive timeout ends", async () => {
    const short = await startServer();
    short.server.keepAliveTimeout = 2_000; // announced as Keep-Alive: timeout=2
    short.handle((_req, res) => res.end('{}'));
    try {
      await (await get({ url: `${short.url}/one` }, signal())).text();
      await (await get({ url: `${short.url}/two` }, signal())).text();
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      await (await get({ url: `${short.url}/three` }, signal())).text();
      // Closed by the client a second before the server's 2 s, so never reused as the server closes it.
      expect(short.seen.slice(0, 2).map((req) => req.socket)).not.toContain(short.seen[2]!.socket);
    } finally {
      await stop(short.server);
    }
  });
});
