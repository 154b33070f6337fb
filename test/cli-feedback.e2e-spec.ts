import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { buildCli } from '../apps/accounting-api/src/cli';
import { loadConfig, type AppConfig } from '../apps/accounting-api/src/config/app-config';
import { isolatedTestDatabase } from './support/test-database';

/** A port of 127.0.0.1 that nothing listens on (it was free a moment ago, and is closed again). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm run cli -- <args>` as a process of its own (from the TypeScript source), with only `env` set. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      path.join(__dirname, 'support/swc-register.js'),
      path.join(__dirname, '../apps/accounting-api/src/cli.ts'),
      ...args,
    ],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The lines written to a progress stream that is not a terminal. */
function progressLines(stream: PassThrough): string[] {
  return (stream.read() as Buffer | null)?.toString().split('\n').filter(Boolean) ?? [];
}

describe('the CLI says what it does and where it looked', () => {
  let dataDir: string;
  let config: AppConfig;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-cli-feedback-'));
    config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  async function cli(
    cfg: AppConfig,
    ...args: string[]
  ): Promise<{ lines: string[]; warnings: string[]; progress: string[] }> {
    const lines: string[] = [];
    const warnings: string[] = [];
    const progress = new PassThrough();
    await buildCli(
      () => cfg,
      (line) => lines.push(line),
      { progress, warn: (line) => warnings.push(line) },
    ).parseAsync(['node', 'cli', ...args]);
    return { lines, warnings, progress: progressLines(progress) };
  }

  const token = (cfg: AppConfig, company: string) =>
    cli(cfg, 'token', '--company', company, '--role', 'accountant', '--sub', 'ola@example.no');

  it('`token` warns when the database has no such company, and prints the token all the same', async () => {
    const known = `cli-${randomBytes(5).toString('hex')}`;
    await cli(config, 'company', 'create', known, '--name', 'Known AS');

    const forKnown = await token(config, known);
    expect(forKnown.warnings).toEqual([]);
    expect(forKnown.lines).toEqual([expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/)]);

    const unknown = `cli-${randomBytes(5).toString('hex')}`;
    const forUnknown = await token(config, unknown);
    expect(forUnknown.lines).toEqual([expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/)]);
    expect(forUnknown.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warning: PostgreSQL at postgres://.+ \\(DATABASE_URL\\) has no company "${unknown}": .*403 unknown_company`,
        ),
      ),
    ]);
  });

  it('`token` says when it could not read the database, and still prints the token', async () => {
    const port = await closedPort();
    const unreachable = loadConfig({
      DATABASE_URL: `postgres://ops:hunter2-secret@127.0.0.1:${port}/accounting`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    });

    const result = await token(unreachable, 'demo');

    expect(result.lines).toEqual([expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/)]);
    expect(result.warnings).toEqual([
      `warning: could not check that company "demo" exists: cannot reach PostgreSQL at ` +
        `postgres://ops@127.0.0.1:${port}/accounting (DATABASE_URL): ECONNREFUSED`,
    ]);
  });

  it('names DATABASE_URL (without its password) in one line, with no stack trace, when the database cannot be reached', async () => {
    const port = await closedPort();
    const env = { DATABASE_URL: `postgres://ops:hunter2-secret@127.0.0.1:${port}/accounting`, DATA_DIR: dataDir };

    const list = await runCli(['company', 'list'], env);

    expect(list.code).toBe(1);
    expect(list.stdout).toBe('');
    expect(list.stderr).toBe(
      `error: cannot reach PostgreSQL at postgres://ops@127.0.0.1:${port}/accounting (DATABASE_URL): ECONNREFUSED\n`,
    );

    // The token is still printed (exit 0), the warning says why the company was not checked.
    const minted = await runCli(['token', '--company', 'demo', '--role', 'admin', '--sub', 'kari@demo.no'], env);
    expect(minted.code).toBe(0);
    expect(minted.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(minted.stderr).toContain('(DATABASE_URL): ECONNREFUSED');
    expect(minted.stderr).not.toContain('hunter2');
  });

  it('`events verify` reports its progress as plain lines when its output is not a terminal', async () => {
    // A database of its own: every company's chain is walked, and other suites leave broken ones behind.
    const isolated = await isolatedTestDatabase('cli_verify');
    try {
      const own = loadConfig({ DATABASE_URL: isolated.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const companies: string[] = [];
      for (let i = 0; i < 3; i++) {
        const company = `cli-${randomBytes(5).toString('hex')}`;
        await cli(own, 'company', 'create', company, '--name', 'Verify AS');
        companies.push(company);
      }

      const { lines, progress } = await cli(own, 'events', 'verify');

      expect(lines[lines.length - 1]).toMatch(/^ok: \d+ event\(s\) of \d+ company\(ies\), no break/);
      // The first company, then every 10th (none here) and the last.
      expect(progress).toEqual([
        `verify: 1/3 companies, 0 events (${[...companies].sort()[0]})`,
        `verify: 3/3 companies, 0 events (${[...companies].sort()[2]})`,
      ]);
    } finally {
      await isolated.dispose();
    }
  });
});
