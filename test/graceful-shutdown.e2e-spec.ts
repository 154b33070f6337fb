import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { startTestApp, type TestApp } from './support/test-app';
import { TEST_AUDIENCE } from './support/gateway-keys';
import { proposalBody } from './support/proposals';
import { Draining } from '../apps/accounting-api/src/platform/shutdown';

describe('readiness while the service drains', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('answers 503 at once, closes each connection after its response, and stays live', async () => {
    expect((await t.http.get('/health/ready')).status).toBe(200);
    t.app.get(Draining).drain();
    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', checks: { shutdown: 'draining' } });
    expect(ready.headers.connection).toBe('close');
    const live = await t.http.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.headers.connection).toBe('close');
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface RawResponse {
  status: number;
  headers: string;
  /** How the connection ended: 'end' (closed by the server after the response) or the error code. */
  ended: string;
}

/**
 * A POST over a socket of its own whose body is sent in two halves: the first now, the second when
 * `rest` resolves. So the request is certainly in flight (headers read, body awaited) in between.
 */
function halfSentPost(port: number, pathName: string, token: string, body: object, rest: Promise<void>) {
  const json = Buffer.from(JSON.stringify(body));
  const half = Math.floor(json.length / 2);
  return new Promise<RawResponse>((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    const done = (ended: string) => {
      const [head] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1] ?? 0);
      resolve({ status, headers: head ?? '', ended });
    };
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => done('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    socket.write(
      `POST ${pathName} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
        `Authorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n`,
    );
    socket.write(json.subarray(0, half));
    void rest.then(() => socket.write(json.subarray(half)));
  });
}

describe('graceful shutdown of the service process on SIGTERM', () => {
  let t: TestApp;
  let child: ChildProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    t = await startTestApp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-shutdown-'));
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets every request in flight finish with Connection: close, then exits 0 with one log line', async () => {
    const port = await freePort();
    child = spawn(
      process.execPath,
      [
        '-r',
        path.join(__dirname, 'support/swc-register.js'),
        path.join(__dirname, '../apps/accounting-api/src/main.ts'),
      ],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: process.env.DATABASE_URL,
          DATA_DIR: dataDir,
          PORT: String(port),
          GATEWAY_JWKS: t.jwksFile,
          GATEWAY_AUDIENCE: TEST_AUDIENCE,
          SEED_DEMO_COMPANY: 'false',
          MIGRATE_ON_BOOT: 'false',
          PROVIDER_SANDBOX: 'true',
          LOG_FORMAT: 'json',
          DAILY_CHECK_ENABLED: 'false',
          SHUTDOWN_GRACE_MS: '10000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const listening = new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('listening on')) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening: ${stderr}`)));
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child!.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await listening;
    // A first request end to end, so that the service is warm (and accepts connections at once).
    let warmUp!: () => void;
    const warm = halfSentPost(
      port,
      '/v1/proposals',
      t.token({ sub: 'warm-up@demo.no' }),
      proposalBody({ receipt: null, merchant: 'Warm-up AS' }),
      new Promise<void>((resolve) => (warmUp = resolve)),
    );
    warmUp();
    expect((await warm).status).toBe(201);

    let sendRest!: () => void;
    const rest = new Promise<void>((resolve) => (sendRest = resolve));
    const inFlight = Array.from({ length: 12 }, (_, i) =>
      halfSentPost(
        port,
        '/v1/proposals',
        t.token({ sub: `shutdown-${i}@demo.no` }),
        proposalBody({ receipt: null, merchant: `Shutdown ${i} AS` }),
        rest,
      ),
    );
    // Every request's headers have reached the service (it waits for their bodies).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const signalled = Date.now();
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The listener is closed: a new connection is refused.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    sendRest();

    const responses = await Promise.all(inFlight);
    const { code, signal } = await exited;

    expect(refused).toBe('ECONNREFUSED');
    expect(responses.map((r) => [r.status, r.ended])).toEqual(responses.map(() => [201, 'end']));
    for (const response of responses) expect(response.headers).toMatch(/\r\nConnection: close/i);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalled).toBeLessThan(10_000);
    const shutdownLines = stdout.split('\n').filter((line) => line.includes('shut down on SIGTERM'));
    expect(shutdownLines).toHaveLength(1);
    expect(shutdownLines[0]).toContain('12 request(s) in flight finished');
  });
});
