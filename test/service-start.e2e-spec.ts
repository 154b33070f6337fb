import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listen } from '../apps/accounting-api/src/bootstrap';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Starts the service process (`main.ts`, as `npm start` runs it) on the test database, waits until
 * it printed its banner and logged where it listens, stops it with SIGTERM and returns its
 * standard output, line by line.
 */
async function startUpOutput(env: Record<string, string>): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-start-'));
  const child = spawn(
    process.execPath,
    ['-r', path.join(__dirname, 'support/swc-register.js'), path.join(__dirname, '../apps/accounting-api/src/main.ts')],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: process.env.DATABASE_URL,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_FORMAT: 'json',
        SEED_DEMO_COMPANY: 'false',
        MIGRATE_ON_BOOT: 'false',
        PROVIDER_SANDBOX: 'true',
        // The shared test database: no background work of this process may touch other suites' rows.
        EXECUTOR_ENABLED: 'false',
        DAILY_CHECK_ENABLED: 'false',
        OUTBOX_DISPATCH_ENABLED: 'false',
        EVENT_SEAL_INTERVAL_MS: '0',
        IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // The banner, and the log line after Nest's last start-up line (pino keeps their order).
        if (stdout.includes('Accounting API listening on') && stdout.includes('"msg":"listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it started: ${stderr}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return stdout.split('\n');
}

const NEST_BOOTSTRAP = /"context":"(RoutesResolver|RouterExplorer|InstanceLoader|NestFactory)"/;

describe('npm start', () => {
  it('shows the banner with the links first: Nest’s start-up lines are at debug level', async () => {
    const lines = await startUpOutput({});

    expect(lines.filter((line) => NEST_BOOTSTRAP.test(line))).toEqual([]);
    const banner = lines.findIndex((line) => line.includes('Accounting API listening on'));
    expect(banner).toBeGreaterThanOrEqual(0);
    expect(banner).toBeLessThan(5);
    expect(lines.slice(banner, banner + 10).join('\n')).toContain('TOKEN=$(npm run -s cli -- token');
    // What an operator needs stays at info: that it started, and where it listens.
    expect(lines.some((line) => line.includes('"msg":"Nest application successfully started"'))).toBe(true);
    expect(lines.some((line) => /"msg":"listening on 127\.0\.0\.1:\d+"/.test(line))).toBe(true);
  });

  it('logs Nest’s start-up lines with LOG_LEVEL=debug', async () => {
    const lines = await startUpOutput({ LOG_LEVEL: 'debug' });

    const routes = lines.filter((line) => /"context":"RouterExplorer"/.test(line));
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.every((line) => line.startsWith('{"level":20,'))).toBe(true);
  });
});

describe('HOST', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('binds the listener to that address only', async () => {
    app = await startTestApp({ env: { HOST: '127.0.0.1', PORT: '0' } });

    const bound = await listen(app.app, app.config);

    expect(bound.address).toBe('127.0.0.1');
    expect((await fetch(`http://127.0.0.1:${bound.port}/health/live`)).status).toBe(200);
  });

  it('unset, listens on every interface', async () => {
    app = await startTestApp({ env: { PORT: '0' } });

    const bound = await listen(app.app, app.config);

    expect(['::', '0.0.0.0']).toContain(bound.address);
  });
});
