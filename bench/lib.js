'use strict';
/**
 * Shared benchmark harness: a throwaway PostgreSQL database, the built service started as a child
 * process against it (dev keys in a temp DATA_DIR), dev tokens, and autocannon runs.
 * Requires `npm run build` first and PostgreSQL on 127.0.0.1:5432 (BENCH_PG_URL to override).
 */
const { spawn, execFileSync } = require('node:child_process');
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
    stdio: ['ignore', 'pipe', 'inherit'],
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

module.exports = { startService, run, summarize, writeResults, psql };
