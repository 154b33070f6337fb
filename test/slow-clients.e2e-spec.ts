import * as http from 'node:http';
import * as net from 'node:net';
import type { Server } from 'node:http';
import { startTestApp, type TestApp } from './support/test-app';
import { listen } from './support/raw-http';
import { PEOPLE } from './support/proposals';

/**
 * Opens a connection, sends `head` and then `body` one byte at a time every `everyMs`, and resolves
 * with what the server answered and whether it closed the connection before the client was done.
 */
function trickle(
  port: number,
  head: string,
  body: string,
  everyMs: number,
): Promise<{ answer: string; closedEarly: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < body.length && !socket.destroyed) socket.write(body[sent++]!);
    }, everyMs);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, closedEarly: sent < body.length });
    });
    socket.write(head);
  });
}

describe('slow clients', () => {
  let t: TestApp;
  let port: number;

  // The production defaults are 30 s for a request and 10 s for headers; here a tenth of a second
  // stands for a second, and a client sending a byte every 500 ms for one sending a byte every 5 s.
  beforeAll(async () => {
    t = await startTestApp({
      env: { HTTP_REQUEST_TIMEOUT_MS: '3000', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '500' },
    });
    port = await listen(t.app.getHttpServer() as Server);
  });
  afterAll(async () => t.close());

  const body = `{"kind":"expense","merchant":"${'x'.repeat(200)}"}`;
  const head = (headers: string) =>
    `POST /v1/proposals HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${body.length}\r\n${headers}\r\n`;

  it('cuts a body sent a byte at a time without a token, after answering 401', async () => {
    const { answer, closedEarly } = await trickle(port, head(''), body, 500);
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(closedEarly).toBe(true);
  }, 20_000);

  it('cuts a body sent a byte at a time with a valid token', async () => {
    const token = t.token(PEOPLE.employee);
    const { closedEarly } = await trickle(port, head(`Authorization: Bearer ${token}\r\n`), body, 500);
    expect(closedEarly).toBe(true);
  }, 20_000);

  it('cuts headers sent a byte at a time', async () => {
    const headers = `GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'y'.repeat(100)}\r\n\r\n`;
    const { answer, closedEarly } = await trickle(port, '', headers, 100);
    expect(closedEarly).toBe(true);
    expect(answer).not.toMatch(/200 OK/);
  }, 20_000);

  it('closes an idle keep-alive connection', async () => {
    const { answer, closedEarly } = await trickle(
      port,
      'GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'z'.repeat(100), // never sent in time: the connection closes while idle
      5_000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(closedEarly).toBe(true);
  }, 20_000);

  it('takes its limits from the environment', () => {
    const server = t.app.getHttpServer() as Server;
    expect(server.requestTimeout).toBe(3000);
    expect(server.headersTimeout).toBe(1000);
    expect(server.keepAliveTimeout).toBe(500);
    expect(server.maxConnections).toBe(1000);
  });
});

/** Opens a connection from `localAddress` and resolves once it is established (it sends nothing). */
function idleConnection(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** GET /health/live over a new connection from `localAddress`: the status, or 'closed' when the server hung up. */
function live(port: number, localAddress: string): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, localAddress, path: '/health/live', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on('error', () => resolve('closed'));
  });
}

describe('connections per client address', () => {
  let t: TestApp;
  let port: number;
  const idle: net.Socket[] = [];

  // The whole of 127/8 is loopback on Linux: 127.0.0.1 and 127.0.0.2 are two clients.
  beforeAll(async () => {
    t = await startTestApp({ env: { HTTP_MAX_CONNECTIONS: '5', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3' } });
    port = await listen(t.app.getHttpServer() as Server);
  });
  afterAll(async () => {
    for (const socket of idle) socket.destroy();
    await t.close();
  });

  it('closes a connection beyond the cap of its address, while other addresses and /health/live are answered', async () => {
    for (let i = 0; i < 3; i++) idle.push(await idleConnection(port, '127.0.0.1'));
    expect(await live(port, '127.0.0.1')).toBe('closed');
    expect(await live(port, '127.0.0.2')).toBe(200);
    expect(await live(port, '127.0.0.2')).toBe(200);
  });

  it('answers the address again once its connections close', async () => {
    for (const socket of idle.splice(0)) socket.destroy();
    let status: number | 'closed' = 'closed';
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await live(port, '127.0.0.1');
    }
    expect(status).toBe(200);
  });
});
