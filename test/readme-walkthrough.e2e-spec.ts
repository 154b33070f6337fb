import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { OpenApiResponseChecker, type ObservedResponse, type OpenApiDocument } from './support/openapi-responses';
import { mismatches, parseShown, printedValues, walkthroughBlocks } from './support/readme-walkthrough';

/**
 * The README's "A first session with curl", run as a newcomer runs it: its bash blocks, unchanged
 * and in order, in one bash process (`set -euo pipefail`: any failing command fails the test)
 * beside the service started as `npm start` starts it — main.ts on the embedded PostgreSQL under a
 * fresh DATA_DIR, with the built-in sandboxes and the seeded `demo` company. Every response the
 * README shows is compared with the one the service printed (test/support/readme-walkthrough.ts
 * says how to read `…`), and every response the script received is checked against the service's
 * /openapi.json, as the e2e suite's are: `B` points at a proxy that passes each exchange through
 * unchanged and keeps a copy.
 *
 * The service and the script run in a directory of their own, whose `./data` is the service's
 * DATA_DIR as in the repository (and where no developer's `.env` is read). Two things differ from a
 * newcomer's shell, both outside the README's text: `B` (which the README defaults to
 * http://localhost:3000) names the port this test chose, and `npm run -s cli -- …` runs the CLI from
 * its sources (`npm` on the script's PATH is a shim), so the test needs no build.
 */
const ROOT = path.join(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SWC_REGISTER = path.join(__dirname, 'support/swc-register.js');
const BLOCK_END = '=== end of README block ===';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A shell's environment without the test run's own (NODE_ENV=test, the test DATABASE_URL). */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ['HOME', 'TMPDIR', 'LANG', 'SWC_REGISTER_CACHE'];
  const env: NodeJS.ProcessEnv = { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` };
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...extra };
}

/** An HTTP proxy to `target` that passes every exchange through unchanged and records it. */
async function recordingProxy(
  target: string,
): Promise<{ url: string; exchanges: ObservedResponse[]; close(): Promise<void> }> {
  const exchanges: ObservedResponse[] = [];
  const server = http.createServer((request, response) => {
    const upstream = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: { ...request.headers, host: new URL(target).host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          const headers = { ...answer.headers };
          delete headers['transfer-encoding'];
          delete headers.connection;
          let parsed: unknown = text;
          if (/json/.test(String(headers['content-type'] ?? ''))) parsed = JSON.parse(text) as unknown;
          exchanges.push({
            method: request.method ?? 'GET',
            url: request.url ?? '/',
            status: answer.statusCode ?? 0,
            headers,
            body: parsed,
            text,
          });
          response.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(body.length) });
          response.end(body);
        });
      },
    );
    upstream.on('error', (error) => {
      response.writeHead(502);
      response.end(error.message);
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the README response notation', () => {
  it('reads "…" as more keys, more items, any value or a string prefix, and nothing else', () => {
    const shown = parseShown('{"a":1,"s":"ab…","v":…,"list":[{"k":"x"},…],…}');
    expect(mismatches(shown, { a: 1, s: 'abc', v: [1], list: [{ k: 'x' }, 2], extra: true })).toEqual([]);
    expect(mismatches(shown, { a: 2, s: 'abc', v: 1, list: [{ k: 'x' }] })).toEqual(['$.a: expected 1, got 2']);
    expect(mismatches(shown, { a: 1, s: 'b', v: 1, list: [] })).toHaveLength(2);
    expect(mismatches(shown, { a: 1, s: 'ab', list: [{ k: 'x' }] })).toEqual(['$.v: missing']);
  });

  it('without "…" wants exactly the keys and items shown', () => {
    expect(mismatches(parseShown('{"a":[1,2]}'), { a: [1, 2], b: 0 })).toEqual(['$: keys not shown (and no "…"): b']);
    expect(mismatches(parseShown('{"a":[1,2]}'), { a: [1, 2, 3] })).toEqual([
      '$.a: expected 2 items (and no "…"), got 3',
    ]);
    expect(mismatches(parseShown('[…,{"m":"POST"},…]'), [{ m: 'GET' }, { m: 'POST' }, { m: 'GET' }])).toEqual([]);
    expect(mismatches(parseShown('[…,{"m":"PUT"},…]'), [{ m: 'GET' }])).toHaveLength(1);
  });

  it('splits what commands print into JSON values and refuses anything else', () => {
    expect(printedValues('{"a":"}"}[1]\n{"b":2}\n')).toEqual([{ a: '}' }, [1], { b: 2 }]);
    expect(() => printedValues('{"a":1} curl: (7) Failed to connect')).toThrow(/not JSON/);
  });
});

describe('the README walk-through, run as written against a freshly started service', () => {
  const blocks = walkthroughBlocks(README);
  let workDir: string;
  let shimDir: string;
  let service: ChildProcess;
  let serviceOutput = '';
  let base: string;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-readme-'));
    // As root the embedded server runs as `postgres`, which must get through to ./data/pgdata.
    fs.chmodSync(workDir, 0o711);
    shimDir = path.join(workDir, 'bin');
    fs.mkdirSync(shimDir);
    const port = await freePort();
    base = `http://localhost:${port}`;
    // npm start's main, as a developer runs it: no NODE_ENV, no DATABASE_URL (embedded PostgreSQL).
    service = spawn(process.execPath, ['-r', SWC_REGISTER, path.join(ROOT, 'apps/accounting-api/src/main.ts')], {
      cwd: workDir,
      env: shellEnv({ PORT: String(port), LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (chunk: Buffer) => (serviceOutput += chunk.toString()));
    service.stderr!.on('data', (chunk: Buffer) => (serviceOutput += chunk.toString()));
    const exited = new Promise<never>((_, reject) =>
      service.once('exit', (code) => reject(new Error(`the service exited (${code}):\n${serviceOutput}`))),
    );
    const healthy = (async () => {
      while (service.exitCode === null) {
        const status = await fetch(`${base}/health`).then(
          (response) => response.status,
          () => 0,
        );
        if (status === 200) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    await Promise.race([healthy, exited]);
    exited.catch(() => undefined);
    proxy = await recordingProxy(base);
    const cli = path.join(ROOT, 'apps/accounting-api/src/cli.ts');
    fs.writeFileSync(
      path.join(shimDir, 'npm'),
      [
        '#!/usr/bin/env bash',
        '# `npm run -s cli -- <args>` as the README calls it, run from the sources (no build needed).',
        'if [ "$#" -ge 4 ] && [ "$1 $2 $3 $4" = "run -s cli --" ]; then',
        '  shift 4',
        `  exec ${JSON.stringify(process.execPath)} -r ${JSON.stringify(SWC_REGISTER)} ${JSON.stringify(cli)} "$@"`,
        'fi',
        'echo "the README walk-through test runs only npm run -s cli -- ...; not: npm $*" >&2',
        'exit 1',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    if (service && service.exitCode === null) {
      const exited = new Promise((resolve) => service.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('has blocks to run, with no placeholders and no macOS-only commands', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const all = blocks.map((b) => b.script).join('\n');
    expect(all).not.toMatch(/<[a-z][\w-]*>/i);
    expect(all).not.toMatch(/^\s*open\s/m);
    expect(all).toContain('B=${B:-http://localhost:3000}');
    expect(blocks.flatMap((b) => b.expected).length).toBeGreaterThanOrEqual(20);
  });

  it('runs every block without a failing command, and each prints what the README shows', async () => {
    const script = [
      'set -euo pipefail',
      ...blocks.flatMap((block) => [block.script, `printf '\\n%s\\n' '${BLOCK_END}'`]),
    ].join('\n');
    const bash = spawn('bash', ['-c', script], {
      cwd: workDir,
      env: shellEnv({ PATH: `${shimDir}:${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, B: proxy.url }),
      stdio: ['ignore', 'pipe', 'pipe'],
      // A walk-through that hangs is stopped (and fails) well before the test's own limit.
      timeout: 150_000,
    });
    const { code, stdout, stderr } = await run(bash);
    const outputs = stdout.split(`\n${BLOCK_END}\n`);
    if (code !== 0) {
      throw new Error(
        `the walk-through failed (exit ${code}) in block ${outputs.length} of ${blocks.length}:\n` +
          `${blocks[outputs.length - 1]?.script ?? ''}\nstderr:\n${stderr}\nservice:\n${serviceOutput.slice(-2000)}`,
      );
    }
    expect(outputs).toHaveLength(blocks.length + 1);

    const problems: string[] = [];
    blocks.forEach((block, n) => {
      const printed = printedValues(outputs[n]);
      if (printed.length !== block.expected.length) {
        problems.push(
          `block ${n + 1} printed ${printed.length} responses and the README shows ${block.expected.length}:\n` +
            `${outputs[n].slice(0, 2000)}`,
        );
        return;
      }
      block.expected.forEach((shown, i) => {
        const found = mismatches(parseShown(shown), printed[i]);
        if (found.length > 0)
          problems.push(`block ${n + 1}, response ${i + 1} (${shown.slice(0, 80)}…):\n  ${found.join('\n  ')}`);
      });
    });
    expect(problems).toEqual([]);

    // Every exchange of the walk-through, as an integrator's generated client would see it.
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApiDocument;
    const checker = new OpenApiResponseChecker(document);
    expect(proxy.exchanges.length).toBeGreaterThanOrEqual(blocks.flatMap((b) => b.expected).length);
    // Each request is one the document describes (the checker passes over an unknown path).
    const templates = Object.keys(document.paths).map((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`));
    const undocumented = proxy.exchanges
      .map((exchange) => new URL(exchange.url, base).pathname)
      .filter((pathname) => !templates.some((template) => template.test(pathname)));
    expect(undocumented).toEqual([]);
    expect(proxy.exchanges.flatMap((exchange) => checker.check(exchange))).toEqual([]);
  }, 180_000);
});
