'use strict';
/**
 * Shared benchmark harness: a throwaway PostgreSQL database, the built service started as a child
 * process against it (dev keys in a temp DATA_DIR), dev tokens, and autocannon runs.
 * Requires `npm run build` first and PostgreSQL on 127.0.0.1:5432 (BENCH_PG_URL to override).
 */
const { spawn, execFileSync } = require('node:child_process');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');

const ROOT = path.resolve(__dirname, '..');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function psql(sql, url = PG_ADMIN_URL) {
  execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', '-c', sql], { stdio: 'inherit' });
}

async function startService({ env = {}, port = 3900 } = {}) {
  const db = `acct_bench_${Date.now()}`;
  psql(`CREATE DATABASE ${db}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-bench-'));
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  // BENCH_NODE_ARGS: extra node flags for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'dist/apps/accounting-api/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SEED_DEMO_COMPANY: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '10000000',
      NODE_ENV: 'development',
      ...env,
    },
    stdio: ['ignore', process.env.BENCH_SERVICE_STDOUT ? 'inherit' : 'pipe', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const devKeys = require(path.join(ROOT, 'dist/apps/accounting-api/src/auth/dev-keys.js'));
  const token = (claims) =>
    devKeys.signDevToken(dataDir, { company: 'demo', role: 'admin', sub: 'bench@demo.no', issuer: 'agent-gateway', ...claims });
  return {
    url,
    databaseUrl,
    dataDir,
    token,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 50, duration: 15, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Open-loop load at a fixed rate: requests evenly spaced (not autocannon's `overallRate`, which
 * releases each second's budget in a burst at the start of the second, so that its latencies are
 * those of a burst of 50 at once, not of the rate). Each latency is measured from the moment the
 * request was due, so a stalled server is not hidden by requests that were sent late.
 *
 * `warmUp` seconds at the same rate come first and are not counted: they open the client's
 * keep-alive connections (a gateway's are open already) and let the server settle after the
 * closed-loop rounds that usually precede this (its backlog of garbage, PostgreSQL's autovacuum of
 * the rows they wrote). Without them the first second, with latencies of 100–700 ms, was about
 * 7 % of a 15 s run's requests and decided its p99.
 */
async function runAtRate({ url, method = 'GET', headers = {}, body, rate, duration, warmUp = 0 }) {
  if (warmUp > 0) await runAtRate({ url, method, headers, body, rate, duration: warmUp });
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const payload = body === undefined ? undefined : Buffer.from(body);
  const requestHeaders = payload ? { ...headers, 'content-length': String(payload.length) } : headers;
  const interval = 1000 / rate;
  const total = Math.floor(rate * duration);
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const inFlight = new Set();
  const start = performance.now();
  const send = (due) => {
    const done = new Promise((resolve) => {
      const request = http.request(
        { agent, hostname: target.hostname, port: target.port, path: target.pathname + target.search, method, headers: requestHeaders },
        (response) => {
          response.resume();
          response.on('end', () => {
            latencies.push(performance.now() - due);
            if (response.statusCode < 200 || response.statusCode >= 300) non2xx++;
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors++;
        resolve();
      });
      request.end(payload);
    });
    inFlight.add(done);
    done.then(() => inFlight.delete(done));
  };
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) send(start + sent++ * interval);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else Promise.all(inFlight).then(resolve);
    };
    tick();
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const percentile = (q) => +latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return {
    requests: { average: latencies.length / elapsed },
    latency: { p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99), max: percentile(1) },
    non2xx,
    errors,
  };
}

/**
 * A webhook receiver in the benchmark's process (a gateway callback, an invoices channel): answers
 * 200 to every POST on `path` and counts them.
 */
async function startReceiver(path) {
  let delivered = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      delivered++;
      response.writeHead(200).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}${path}`, delivered: () => delivered, close: () => server.close() };
}

function summarize(name, result) {
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function writeResults(file, data) {
  const dir = path.join(__dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, file), JSON.stringify(data, null, 2));
}

module.exports = { startService, run, runAtRate, startReceiver, summarize, writeResults, psql };
