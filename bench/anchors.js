'use strict';
/**
 * The anchors the service is measured against, in the same run as the service (docs/performance.md):
 *
 * - bare Nest + RS256 guard, GET /v1/whoami, and the same app storing each request's
 *   (company, Idempotency-Key) with one INSERT … ON CONFLICT DO NOTHING (bench/anchor-app.js);
 * - the service's GET /health and GET /v1/whoami (rate limit in memory, no REDIS_URL).
 *
 * They alternate for BENCH_ROUNDS rounds of BENCH_SECONDS each (closed loop, BENCH_CONNECTIONS) and
 * the medians are kept, with each figure's ratio to its anchor.
 *
 *   npm run build && node bench/anchors.js     → bench/results/anchors.json
 */
const { spawn } = require('node:child_process');
const { generateKeyPairSync, randomUUID } = require('node:crypto');
const path = require('node:path');
const jwt = require('jsonwebtoken');
const { startService, run, summarize, writeResults, psql } = require('./lib');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ANCHOR_PORT = 3905;

function median(results) {
  const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)];
}

async function startAnchor(databaseUrl, publicKey) {
  const child = spawn(process.execPath, [path.join(__dirname, 'anchor-app.js')], {
    env: { ...process.env, PORT: String(ANCHOR_PORT), ANCHOR_PUBLIC_KEY: publicKey, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => chunk.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`the anchor app exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${ANCHOR_PORT}`,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
  };
}

async function main() {
  const db = `acct_bench_anchor_${Date.now()}`;
  psql(`CREATE DATABASE ${db}`);
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  psql('CREATE TABLE anchor_keys (company text NOT NULL, key text NOT NULL, PRIMARY KEY (company, key))', databaseUrl);
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const anchorToken = jwt.sign({ sub: 'bench@demo.no', company_id: 'demo' }, privateKey, {
    algorithm: 'RS256',
    expiresIn: '1h',
  });
  const anchor = await startAnchor(databaseUrl, publicKey.export({ type: 'spki', format: 'pem' }));
  const service = await startService({ port: 3902, env: { EXECUTOR_ENABLED: 'false', DAILY_CHECK_ENABLED: 'false' } });
  const serviceToken = service.token({ role: 'employee', sub: 'ola@demo.no' });
  const cases = {
    bareWhoami: { url: `${anchor.url}/v1/whoami`, headers: { authorization: `Bearer ${anchorToken}` } },
    bareKeyedInsert: {
      url: `${anchor.url}/v1/keyed`,
      method: 'POST',
      headers: { authorization: `Bearer ${anchorToken}`, 'content-type': 'application/json' },
      body: '{}',
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'idempotency-key': randomUUID() },
          }),
        },
      ],
    },
    serviceHealth: { url: `${service.url}/health` },
    serviceWhoami: { url: `${service.url}/v1/whoami`, headers: { authorization: `Bearer ${serviceToken}` } },
  };
  const results = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, options] of Object.entries(cases)) {
        const result = summarize(name, await run({ connections: CONNECTIONS, duration: SECONDS, ...options }));
        results[name].push(result);
        console.log(`round ${round + 1}: ${name} ${result.requestsPerSecond} req/s, p99 ${result.p99ms} ms`);
      }
    }
  } finally {
    await anchor.stop();
    await service.stop();
    psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  }
  const m = Object.fromEntries(Object.entries(results).map(([name, list]) => [name, median(list)]));
  const ratio = (a, b) => Math.round((m[a].requestsPerSecond / m[b].requestsPerSecond) * 100) / 100;
  const ratios = {
    serviceWhoamiVsBareWhoami: ratio('serviceWhoami', 'bareWhoami'),
    serviceHealthVsBareWhoami: ratio('serviceHealth', 'bareWhoami'),
    bareKeyedInsertVsBareWhoami: ratio('bareKeyedInsert', 'bareWhoami'),
  };
  console.table(Object.values(m));
  console.log(ratios);
  writeResults('anchors.json', { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, medians: m, ratios });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
