import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { receiptPdf } from '@app/testing';
import { buildCli } from '../apps/accounting-api/src/cli';
import { loadConfig, type AppConfig } from '../apps/accounting-api/src/config/app-config';
import { proposalBody } from './support/proposals';

/**
 * The embedded default under two clients, as a developer runs it: the service in a process of its
 * own (`npm start`'s main, on the embedded PostgreSQL under DATA_DIR), proposals with receipts
 * streaming in over HTTP, and beside it the CLI — `company create`, `company list`, `checks run` —
 * in a loop, connected to the service's server.
 */
const ITERATIONS = 25;
const SUBMITTERS = 3;

/** A PDF of `bytes`, its content stream padded, so its Bind spans many socket reads. */
const paddedPdf = (bytes: number): Buffer => receiptPdf({ size: bytes });

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the embedded database with the CLI running beside a service under load', () => {
  let dataDir: string;
  let config: AppConfig;
  let service: ChildProcess;
  let base: string;

  const cli = async (...args: string[]): Promise<string[]> => {
    const lines: string[] = [];
    await buildCli(
      () => config,
      (line) => lines.push(line),
    ).parseAsync(['node', 'cli', ...args]);
    return lines;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-emb-load-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    config = loadConfig(env);
    service = spawn(
      process.execPath,
      [
        '-r',
        path.join(__dirname, 'support/swc-register.js'),
        path.join(__dirname, '../apps/accounting-api/src/main.ts'),
      ],
      { env: { ...process.env, ...env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('listening on')) resolve();
      };
      service.stdout!.on('data', onData);
      service.stderr!.on('data', onData);
      service.once('exit', (code) => reject(new Error(`the service exited (${code}): ${output}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (service.exitCode === null) {
      const exited = new Promise((resolve) => service.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('never fails a CLI command nor a request, and loses nothing', async () => {
    const [employee] = await cli('token', '--company', 'demo', '--role', 'employee', '--sub', 'kari@demo.no');
    const [accountant] = await cli('token', '--company', 'demo', '--role', 'accountant', '--sub', 'ola@demo.no');
    const receipt = paddedPdf(512 * 1024).toString('base64');
    const submitted: string[] = [];
    const requestFailures: string[] = [];
    let loading = true;

    const submitter = async (worker: number): Promise<void> => {
      for (let n = 0; loading; n++) {
        const body = proposalBody({
          merchant: `Load ${worker}-${n} AS`,
          receipt: { filename: 'r.pdf', contentType: 'application/pdf', dataBase64: receipt },
        });
        const response = await fetch(`${base}/v1/proposals`, {
          method: 'POST',
          headers: { authorization: `Bearer ${employee}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as { id?: string; code?: string };
        if (response.status === 201 && answer.id) submitted.push(answer.id);
        else requestFailures.push(`${response.status} ${answer.code ?? ''}`);
      }
    };
    const load = Array.from({ length: SUBMITTERS }, (_, worker) => submitter(worker));

    const cliFailures: string[] = [];
    const run = async (...args: string[]): Promise<string[]> => {
      try {
        return await cli(...args);
      } catch (error) {
        cliFailures.push(`${args.join(' ')}: ${(error as Error).message}`);
        return [];
      }
    };
    for (let i = 0; i < ITERATIONS; i++) {
      await run('company', 'create', `loop-${i}`, '--name', `Loop ${i} AS`);
      await run('company', 'list', '--json');
      if (i % 8 === 0) await run('checks', 'run', '--company', 'demo');
    }
    loading = false;
    await Promise.all(load);

    expect(cliFailures).toEqual([]);
    expect(requestFailures).toEqual([]);
    const [listed] = await cli('company', 'list', '--json');
    const ids = (JSON.parse(listed) as { id: string }[]).map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(Array.from({ length: ITERATIONS }, (_, i) => `loop-${i}`)));
    expect(submitted.length).toBeGreaterThan(0);
    for (const id of submitted) {
      const response = await fetch(`${base}/v1/proposals/${id}`, {
        headers: { authorization: `Bearer ${accountant}` },
      });
      expect(response.status).toBe(200);
    }
  }, 300_000);
});
