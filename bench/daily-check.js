'use strict';
/**
 * The daily check over many sandbox companies: wall time against the floor the providers' limits
 * allow, and the API process's peak memory.
 *
 *   npm run build && node bench/daily-check.js
 *
 * Each company's invoices channel is a webhook receiver in this process, so the results are
 * delivered as in production. The sandbox runs in its own process (latency BENCH_LATENCY_MS, default 50 ms per call; Fiken
 * paced at 4 requests/s per company, as the real one slows clients above that). BENCH_COMPANIES
 * companies (default 1 000, half Tripletex, half Fiken), BENCH_ENTRIES vouchers / journal entries
 * each (default 2 000, over a year), and the daily check reading the whole year
 * (DAILY_CHECK_LOOKBACK_DAYS=365, or BENCH_LOOKBACK_DAYS) so that every voucher is read. The service is the built one,
 * started on PostgreSQL (BENCH_PG_URL) with the job enabled: it catches up the latest 07:00 slot
 * at start. Wall time = first run started → last run finished (daily_check_runs).
 * Floor = the slowest company alone: Fiken (n − 1) × max(1/4 s, latency) + latency, Tripletex n × latency, n being
 * the requests the company needed (from the sandbox's call log) — what the per-company limits
 * allow with every company checked at once.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { psql, startReceiver, writeResults, companyFloorSeconds, FIKEN_RPS } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 1000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 2000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const FIKEN_SHARE = Number(process.env.BENCH_FIKEN_SHARE ?? 0.5);
const PORT = Number(process.env.BENCH_PORT ?? 3901);

/** `node bench/daily-check.js --sandbox <json options>`: the sandbox process. */
async function sandboxProcess(options) {
  const { createSandbox } = require(path.join(DIST, 'apps/provider-sandbox/src/sandbox.js'));
  const sandbox = createSandbox(options);
  const running = await sandbox.start(0);
  // A clean exit, so that --cpu-prof (BENCH_SANDBOX_NODE_ARGS) can write its profile.
  process.once('SIGTERM', () => process.exit(0));
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
}

function startSandbox(tripletexCompanies, fikenCompanies) {
  const options = {
    seed: 4102,
    entriesPerCompany: ENTRIES,
    invoicesPerCompany: 60,
    latencyMs: LATENCY_MS,
    callLogSize: 400_000,
    tripletex: { companies: Math.max(tripletexCompanies, 1), rateLimit: { limit: 10_000, windowSeconds: 60 } },
    fiken: { companies: Math.max(fikenCompanies, 1), requestsPerSecond: FIKEN_RPS, accessTokenTtlSeconds: 7200 },
  };
  const nodeArgs = (process.env.BENCH_SANDBOX_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=4096', ...nodeArgs, __filename, '--sandbox', JSON.stringify(options)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve({ child, ...JSON.parse(chunk.toString()) }));
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

function serviceEnv(databaseUrl, dataDir, sandboxUrl, extra = {}) {
  const credentials = require(path.join(DIST, 'apps/provider-sandbox/src/constants.js'));
  return {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(PORT),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SEED_DEMO_COMPANY: 'false',
    LOG_LEVEL: 'warn',
    PROVIDER_SANDBOX: 'off',
    TRIPLETEX_CONSUMER_TOKEN: credentials.SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
    TRIPLETEX_BASE_URL: `${sandboxUrl}/tripletex/v2`,
    FIKEN_CLIENT_ID: credentials.SANDBOX_FIKEN_CLIENT_ID,
    FIKEN_CLIENT_SECRET: credentials.SANDBOX_FIKEN_CLIENT_SECRET,
    FIKEN_API_URL: `${sandboxUrl}/fiken/api/v2`,
    FIKEN_OAUTH_URL: `${sandboxUrl}/fiken/oauth`,
    PROVIDER_TIMEOUT_MS: '30000',
    DB_POOL_SIZE: '20',
    EXECUTOR_ENABLED: 'false',
    DAILY_CHECK_LOOKBACK_DAYS: process.env.BENCH_LOOKBACK_DAYS ?? '365',
    DAILY_CHECK_CONCURRENCY_FIKEN: String(Math.max(1, Math.ceil(COMPANIES * FIKEN_SHARE))),
    DAILY_CHECK_CONCURRENCY_TRIPLETEX: process.env.BENCH_TRIPLETEX_CONCURRENCY ?? '64',
    ...extra,
  };
}

/** Companies and their connections, written through the built service's own adapters (vault included). */
async function setUp(env, sandboxUrl, tripletexCompanies, fikenCompanies, invoicesUrl) {
  Object.assign(process.env, env, { DAILY_CHECK_ENABLED: 'false' });
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require(path.join(DIST, 'apps/accounting-api/src/app.module.js'));
  const { loadConfig } = require(path.join(DIST, 'apps/accounting-api/src/config/app-config.js'));
  const domain = require(path.join(DIST, 'libs/domain/src/index.js'));
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ config: loadConfig(env) }), {
    logger: false,
  });
  await app.init();
  const companies = app.get(domain.CompanyRepository);
  const connections = app.get(domain.ProviderConnectionRepository);
  const settings = app.get(domain.CompanySettingsStore);
  const tripletex = await (await fetch(`${sandboxUrl}/_sandbox/tripletex/companies`)).json();
  const fiken = await (await fetch(`${sandboxUrl}/_sandbox/fiken/companies`)).json();
  const jobs = [];
  for (let i = 0; i < tripletexCompanies; i++)
    jobs.push({ id: `bench-tx-${i}`, provider: 'tripletex', info: tripletex[i] });
  for (let i = 0; i < fikenCompanies; i++)
    jobs.push({ id: `bench-fk-${i}`, provider: 'fiken', info: fiken[i], index: i });
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      await companies.create({ id: job.id, name: job.id });
      await settings.save(job.id, {
        ...domain.DEFAULT_COMPANY_SETTINGS,
        invoicesChannel: { kind: 'webhook', url: invoicesUrl },
      });
      if (job.provider === 'tripletex') {
        await connections.connect({
          companyId: job.id,
          grant: { provider: 'tripletex', employeeToken: job.info.employeeToken },
          externalCompanyId: String(job.info.companyId),
          externalCompanyName: job.info.name,
          connectedBy: 'bench@demo.no',
        });
      } else {
        const response = await fetch(`${sandboxUrl}/_sandbox/fiken/tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ company: job.index }),
        });
        const issued = await response.json();
        await connections.connect({
          companyId: job.id,
          grant: {
            provider: 'fiken',
            tokens: {
              accessToken: issued.access_token,
              refreshToken: issued.refresh_token,
              expiresAt: Date.now() + issued.expires_in * 1000,
            },
          },
          externalCompanyId: job.info.slug,
          externalCompanyName: job.info.name,
          connectedBy: 'bench@demo.no',
        });
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  await app.close();
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSecondsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function rssOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const value = (key) => Number((new RegExp(`${key}:\\s+(\\d+) kB`).exec(status) ?? [])[1] ?? 0) * 1024;
    return { rss: value('VmRSS'), hwm: value('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

async function main() {
  const fikenCompanies = Math.round(COMPANIES * FIKEN_SHARE);
  const tripletexCompanies = COMPANIES - fikenCompanies;
  const sandbox = await startSandbox(tripletexCompanies, fikenCompanies);
  const db = `acct_bench_daily_${Date.now()}`;
  psql(`CREATE DATABASE ${db}`);
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-bench-daily-'));
  const env = serviceEnv(databaseUrl, dataDir, sandbox.url);
  const receiver = await startReceiver('/invoices');
  const { Client } = require('pg');
  const pg = new Client({ connectionString: databaseUrl });
  let service;
  try {
    process.stderr.write(`setting up ${tripletexCompanies} Tripletex and ${fikenCompanies} Fiken companies…\n`);
    await setUp(env, sandbox.url, tripletexCompanies, fikenCompanies, receiver.url);
    const callsBefore = (await (await fetch(`${sandbox.url}/_sandbox/calls`)).json()).length;

    // BENCH_NODE_ARGS: extra node flags for the service (e.g. --cpu-prof); BENCH_SANDBOX_NODE_ARGS for the sandbox.
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    service = spawn(process.execPath, [...nodeArgs, path.join(DIST, 'apps/accounting-api/src/main.js')], {
      env: { ...env, DAILY_CHECK_ENABLED: 'true' },
      stdio: ['ignore', process.env.BENCH_SERVICE_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    });
    await pg.connect();
    const sandboxCpuBefore = cpuSecondsOf(sandbox.child.pid);
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(service.pid).rss);
    }, 50);
    const deadline = Date.now() + 30 * 60_000;
    let done = 0;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const { rows } = await pg
        .query(`SELECT count(*) FILTER (WHERE status IN ('succeeded', 'failed')) AS done FROM daily_check_runs`)
        .catch(() => ({ rows: [{ done: 0 }] }));
      done = Number(rows[0].done);
      if (process.stderr.isTTY) process.stderr.write(`\r${done}/${COMPANIES} companies checked`);
      if (done >= COMPANIES) break;
    }
    process.stderr.write('\n');
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(service.pid).hwm);
    const cpuSeconds = {
      service: cpuSecondsOf(service.pid),
      sandbox: +(cpuSecondsOf(sandbox.child.pid) - sandboxCpuBefore).toFixed(2),
    };
    const { rows } = await pg.query(
      `SELECT count(*) FILTER (WHERE status = 'succeeded') AS succeeded, count(*) FILTER (WHERE status = 'failed') AS failed,
              sum(items_found) AS items, extract(epoch FROM max(finished_at) - min(started_at)) AS wall
         FROM daily_check_runs`,
    );
    const perProvider = await pg.query(
      `SELECT provider, round(avg(extract(epoch FROM finished_at - started_at))::numeric, 2) AS avg_run,
              round(max(extract(epoch FROM finished_at - started_at))::numeric, 2) AS max_run,
              round(extract(epoch FROM max(finished_at) - min(started_at))::numeric, 2) AS span
         FROM daily_check_runs GROUP BY provider ORDER BY provider`,
    );
    const calls = (await (await fetch(`${sandbox.url}/_sandbox/calls`)).json()).slice(callsBefore);
    const perCompany = new Map();
    for (const call of calls) {
      if (!call.company || call.path.includes('/oauth/')) continue;
      const key = `${call.provider}:${call.company}`;
      perCompany.set(key, (perCompany.get(key) ?? 0) + 1);
    }
    let floor = 0;
    let requests = 0;
    for (const [key, n] of perCompany) {
      requests += n;
      floor = Math.max(floor, companyFloorSeconds(key.slice(0, key.indexOf(':')), n, LATENCY_MS));
    }
    const wall = Number(rows[0].wall);
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      companies: { tripletex: tripletexCompanies, fiken: fikenCompanies },
      entriesPerCompany: ENTRIES,
      lookbackDays: Number(env.DAILY_CHECK_LOOKBACK_DAYS),
      latencyMs: LATENCY_MS,
      fikenRequestsPerSecond: FIKEN_RPS,
      concurrency: {
        tripletex: Number(env.DAILY_CHECK_CONCURRENCY_TRIPLETEX),
        fiken: Number(env.DAILY_CHECK_CONCURRENCY_FIKEN),
      },
      succeeded: Number(rows[0].succeeded),
      failed: Number(rows[0].failed),
      itemsFound: Number(rows[0].items ?? 0),
      // Results posted to the invoices channels by the time the last run finished (the outbox
      // dispatcher delivers them alongside the checks).
      deliveredToInvoicesChannel: receiver.delivered(),
      providerRequests: requests,
      wallSeconds: +wall.toFixed(2),
      floorSeconds: +floor.toFixed(2),
      ratioToFloor: +(wall / floor).toFixed(2),
      peakRssMB: Math.round(peak / 1024 / 1024),
      // The service's includes its start-up (about 1.5 s); the sandbox's, only the run.
      cpuSeconds,
      perProvider: Object.fromEntries(
        perProvider.rows.map((r) => [
          r.provider,
          { avgRunSeconds: Number(r.avg_run), maxRunSeconds: Number(r.max_run), spanSeconds: Number(r.span) },
        ]),
      ),
    };
    console.log(JSON.stringify(result, null, 2));
    writeResults('daily-check.json', result);
  } finally {
    await pg.end().catch(() => undefined);
    if (service) {
      service.kill('SIGTERM');
      await new Promise((r) => service.once('exit', r));
    }
    sandbox.child.kill('SIGTERM');
    receiver.close();
    psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--sandbox') {
  sandboxProcess(JSON.parse(process.argv[3])).catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
} else {
  main().catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}
