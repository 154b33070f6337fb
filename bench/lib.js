'use strict';
/**
 * Shared benchmark harness: a throwaway PostgreSQL database, the built service started as a child
 * process against it (dev keys in a temp DATA_DIR), dev tokens, and autocannon runs.
 * Requires `npm run build` first and PostgreSQL on 127.0.0.1:5432 (BENCH_PG_URL to override).
 */
const { spawn, execFileSync } = require('node:child_process');
const http = require('node:http');
const net = require('node:net');
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

/** The first column of the first row of `sql`'s answer, as text. */
function psqlValue(sql, url = PG_ADMIN_URL) {
  return execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-tAc', sql]).toString().trim();
}

let autovacuumChecked = false;

/**
 * Says so once when the server runs without autovacuum (a CI machine's setting for fast tests):
 * dead rows and stale statistics then pile up over a run, and the figures, a soak's most of all,
 * are those of a database no deployment runs.
 */
function warnWithoutAutovacuum() {
  if (autovacuumChecked) return;
  autovacuumChecked = true;
  if (psqlValue('SHOW autovacuum') !== 'on')
    console.warn(
      'warning: this PostgreSQL runs with autovacuum off; turn it on for figures that hold ' +
        '(ALTER SYSTEM SET autovacuum = on; SELECT pg_reload_conf())',
    );
}

async function startService({ env = {}, port = 3900 } = {}) {
  warnWithoutAutovacuum();
  const db = `acct_bench_${Date.now()}`;
  // A service left over from an interrupted run would answer in this one's place.
  await assertPortFree(port);
  psql(`CREATE DATABASE ${db}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acct-bench-'));
  const databaseUrl = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  // BENCH_NODE_ARGS: extra node flags for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const main = [...nodeArgs, path.join(ROOT, 'dist/apps/accounting-api/src/main.js')];
  // BENCH_SERVICE_CPUS: the CPUs the service may run on (taskset's list, e.g. "0"), to see it on a
  // core of its own; run the benchmark itself with `taskset -c 1` and move PostgreSQL there too.
  const cpus = process.env.BENCH_SERVICE_CPUS;
  const child = spawn(cpus ? 'taskset' : process.execPath, cpus ? ['-c', cpus, process.execPath, ...main] : main, {
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
  let up = false;
  for (let i = 0; i < 120 && !up && child.exitCode === null; i++) {
    try {
      up = (await fetch(`${url}/health`)).ok;
    } catch {
      /* not up yet */
    }
    if (!up) await new Promise((r) => setTimeout(r, 500));
  }
  if (!up) {
    child.kill('SIGTERM');
    psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    throw new Error(`the service did not start on ${url}`);
  }
  const devKeys = require(path.join(ROOT, 'dist/apps/accounting-api/src/auth/dev-keys.js'));
  const token = (claims) =>
    devKeys.signDevToken(dataDir, {
      company: 'demo',
      role: 'admin',
      sub: 'bench@demo.no',
      issuer: 'agent-gateway',
      ...claims,
    });
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

function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', () => reject(new Error(`port ${port} is in use: stop what listens there first`)));
    probe.listen(port, '127.0.0.1', () => probe.close(resolve));
  });
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 50, duration: 15, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
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
 *
 * The client shares the machine's two cores with the service and PostgreSQL, so it is as lean as
 * autocannon, which measured the maximum it is compared with: keep-alive sockets carrying one
 * request at a time (a free one is reused, a new one opened when all are busy), the request's bytes
 * written as they are, and a response read only as far as its status and Content-Length: about
 * 110 µs of CPU per submission, where Node's `http.request` took 180 µs.
 *
 * `vary(i)`: the i-th request's own `path`, `headers` and/or `body` (a fresh Idempotency-Key,
 * another cursor, a purchase of its own). `serviceUrl`: the counted part's result also says what the service spent
 * (`measureService`).
 */
async function runAtRate({ url, method = 'GET', headers = {}, body, rate, duration, warmUp = 0, serviceUrl, vary }) {
  const pool = [];
  const request = { url, method, headers, body, rate, vary };
  try {
    if (warmUp > 0) await openLoop({ ...request, duration: warmUp }, pool);
    const counted = () => openLoop({ ...request, duration }, pool);
    return await (serviceUrl ? measureService(serviceUrl, counted) : counted());
  } finally {
    for (const connection of pool.splice(0)) connection.socket.destroy();
  }
}

/** One open-loop run over `pool`, the free keep-alive connections (shared with a warm-up before it). */
async function openLoop({ url, method, headers, body, rate, duration, vary }, pool) {
  const target = new URL(url);
  const fixedPayload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const bytesOf = (path, extraHeaders, payload = fixedPayload) => {
    const head = [`${method} ${path} HTTP/1.1`, `host: ${target.host}`, 'connection: keep-alive'];
    for (const [name, value] of Object.entries({ ...headers, ...extraHeaders })) head.push(`${name}: ${value}`);
    if (payload.length > 0 || method !== 'GET') head.push(`content-length: ${payload.length}`);
    return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), payload]);
  };
  const fixedBytes = bytesOf(`${target.pathname}${target.search}`, {});
  // `vary(i)`: the i-th request's own path, headers and/or body (a fresh Idempotency-Key, another
  // cursor, a purchase of its own).
  const requestBytes = (i) => {
    if (!vary) return fixedBytes;
    const own = vary(i);
    const payload = own.body === undefined ? fixedPayload : Buffer.from(own.body);
    return bytesOf(own.path ?? `${target.pathname}${target.search}`, own.headers ?? {}, payload);
  };
  const interval = 1000 / rate;
  const dueAt = (start, i) => start + i * interval;
  const total = Math.floor(rate * duration);
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let pending = 0;
  let finished;
  const allAnswered = new Promise((resolve) => (finished = resolve));
  const answered = (connection, status) => {
    if (status === 0) {
      errors++;
    } else {
      latencies.push(performance.now() - connection.due);
      if (status < 200 || status >= 300) non2xx++;
    }
    if (--pending === 0 && sent === total) finished();
  };
  const send = (due, i) => {
    const connection = pool.pop() ?? connect(target, pool);
    connection.due = due;
    connection.answered = answered;
    pending++;
    connection.socket.write(requestBytes(i));
  };
  const start = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && dueAt(start, sent) <= now) {
        send(dueAt(start, sent), sent);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, dueAt(start, sent) - performance.now()));
      else resolve();
    };
    tick();
  });
  if (pending > 0) await allAnswered;
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const percentile = (q) => +latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return {
    requests: { average: latencies.length / elapsed, total: latencies.length },
    latency: { p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99), max: percentile(1) },
    non2xx,
    errors,
  };
}

/**
 * A keep-alive connection of the open-loop client, back in `pool` once its request is answered.
 * `answered(connection, status)` is the run's that sent the request (0: no answer, the connection
 * failed).
 */
function connect(target, pool) {
  const socket = net.connect({ host: target.hostname, port: Number(target.port) });
  socket.setNoDelay(true);
  const connection = { socket, due: 0, answered: null, buffered: null };
  const finish = (status) => {
    const answered = connection.answered;
    connection.answered = null;
    connection.buffered = null;
    if (status !== 0) pool.push(connection);
    answered?.(connection, status);
  };
  socket.on('data', (chunk) => {
    const data = connection.buffered ? Buffer.concat([connection.buffered, chunk]) : chunk;
    const headerEnd = data.indexOf('\r\n\r\n');
    const header = headerEnd < 0 ? '' : data.toString('latin1', 0, headerEnd);
    const declared = /\r\ncontent-length: *(\d+)/i.exec(header);
    if (headerEnd >= 0 && declared === null) {
      // Every answer of the service carries a Content-Length; without one its end is unknown.
      socket.destroy();
    } else if (headerEnd < 0 || data.length < headerEnd + 4 + Number(declared[1])) {
      connection.buffered = data;
    } else {
      finish(Number(header.slice(9, 12)));
    }
  });
  const fail = () => {
    const index = pool.indexOf(connection);
    if (index >= 0) pool.splice(index, 1);
    if (connection.answered) finish(0);
  };
  socket.on('error', fail);
  socket.on('close', fail);
  return connection;
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
  return {
    url: `http://127.0.0.1:${server.address().port}${path}`,
    delivered: () => delivered,
    close: () => server.close(),
  };
}

/** The service's CPU seconds (all its threads) and event-loop busy seconds so far, from its /metrics. */
async function serviceCounters(serviceUrl) {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  const read = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    at: performance.now(),
    cpu: read('process_cpu_seconds_total'),
    busy: read('nodejs_eventloop_busy_seconds_total'),
  };
}

/**
 * What the service itself spent while `work` (a run) went on, read from its /metrics before and
 * after, attached to the run's result as `service`: its CPU in cores, its event loop's utilization
 * (1 = the one thread that serves every request never waited: saturated, so latency grows without
 * bound) and its CPU per request.
 */
async function measureService(serviceUrl, work) {
  const before = await serviceCounters(serviceUrl);
  const result = await work();
  const after = await serviceCounters(serviceUrl);
  const seconds = (after.at - before.at) / 1000;
  result.service = {
    cpuCores: +((after.cpu - before.cpu) / seconds).toFixed(2),
    eventLoopBusy: +((after.busy - before.busy) / seconds).toFixed(2),
    cpuMicrosecondsPerRequest: Math.round(((after.cpu - before.cpu) * 1e6) / result.requests.total),
  };
  return result;
}

function summarize(name, result) {
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ...(result.service && {
      serviceCores: result.service.cpuCores,
      loopBusy: result.service.eventLoopBusy,
      cpuUsPerRequest: result.service.cpuMicrosecondsPerRequest,
    }),
  };
}

/** Fiken answers a client at most this many requests a second (the sandbox paces it so, as the real one does). */
const FIKEN_RPS = 4;

/**
 * The providers' floor for one company that needed `requests` calls at `latencyMs` each: Fiken one
 * request at a time, at most FIKEN_RPS a second (a request every max(1/rps, latency)); Tripletex
 * one after another. The run's floor is its slowest company's, every company checked at once.
 */
function companyFloorSeconds(provider, requests, latencyMs) {
  const latency = latencyMs / 1000;
  return provider === 'fiken' ? (requests - 1) * Math.max(1 / FIKEN_RPS, latency) + latency : requests * latency;
}

/** The machine a result was measured on, as the report prints it. */
function machine() {
  const cpus = os.cpus();
  const load = os.loadavg()[0].toFixed(1);
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${load} when written`;
}

/** Writes bench/results/<file> with the date, Node's version and the machine added. */
function writeResults(file, data) {
  const dir = path.join(__dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamped = { date: new Date().toISOString(), node: process.version, machine: machine(), ...data };
  fs.writeFileSync(path.join(dir, file), JSON.stringify(stamped, null, 2));
}

/** The benchmarks' expense: a merchant the demo company has a verified pattern for (auto-approve path). */
const SUBMISSION = Object.freeze({
  kind: 'expense',
  merchant: 'SPOTIFY AB',
  amount: '119.00',
  currency: 'NOK',
  date: '2026-11-20',
  accountCode: '6540',
  vatRate: '25',
  description: 'Spotify Premium',
  thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
});

/** Merchants the benchmarks' submissions rotate over, each given a verified pattern (BENCH_VENDORS). */
const VENDORS = Number(process.env.BENCH_VENDORS ?? 200);
const AMOUNT_STEPS = 64;
const DAY_MS = 24 * 3600 * 1000;
const SYLLABLES = ['ba', 'de', 'fi', 'go', 'hu', 'ka', 'le', 'mi', 'no', 'pu'];
const SYLLABLES_2 = ['ra', 'se', 'ti', 'vo', 'sku', 'bre', 'sta', 'kje', 'tro', 'fle', 'gu', 'ny', 'mo', 'pe', 'da'];

/** The k-th vendor's name: letters only (digits would be read as a store number), unique for k < 1 500. */
function vendorName(k) {
  const first = SYLLABLES[k % 10] + SYLLABLES_2[Math.floor(k / 10) % 15] + SYLLABLES[Math.floor(k / 150) % 10];
  return `${first[0].toUpperCase()}${first.slice(1)} Handel AS`;
}

/**
 * A ladder of purchases none of which another of the same ladder can be taken for. The same
 * merchant, a NOK amount within 0.5 % and a date within 3 days is a possible duplicate, held for
 * review and never auto-approved (docs/trust.md), so a fixed body would leave the auto-approve
 * path from its second request on. The purchases rotate over VENDORS merchants; each merchant's
 * amounts climb AMOUNT_STEPS rungs 1.1 % apart from `baseNok`, and when the rungs are used up the
 * dates move a week back. Returns the next purchase on each call: `{ merchant, amount, date, vendor }`.
 */
function purchaseLadder(baseNok) {
  let n = 0;
  return () => {
    const i = n++;
    const vendor = i % VENDORS;
    const rung = Math.floor(i / VENDORS) % AMOUNT_STEPS;
    const week = Math.floor(i / (VENDORS * AMOUNT_STEPS));
    const amount = (Math.round(baseNok * 100 * 1.011 ** rung) / 100).toFixed(2);
    const date = new Date(Date.UTC(2026, 10, 20) - week * 7 * DAY_MS).toISOString().slice(0, 10);
    return { merchant: vendorName(vendor), amount, date, vendor };
  };
}

/**
 * pg_stat_statements, when the server loads it (`shared_preload_libraries`): reset now, and read()
 * gives this database's statements since, by total execution time, each with its calls per
 * submission (`perSubmission`), mean execution time, rows and buffers per call; reset() starts
 * counting afresh. Null otherwise.
 */
function serverStatements(url) {
  const loaded = psqlValue("SELECT current_setting('shared_preload_libraries') ~ 'pg_stat_statements'", url);
  if (loaded !== 't') return null;
  psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements', url);
  psqlValue('SELECT pg_stat_statements_reset()', url);
  return {
    reset() {
      psqlValue('SELECT pg_stat_statements_reset()', url);
    },
    read(submissions) {
      const rows = JSON.parse(
        psqlValue(
          `SELECT coalesce(json_agg(t), '[]') FROM (
             SELECT calls, round(total_exec_time::numeric, 1) AS "totalMs", round(mean_exec_time::numeric, 3) AS "meanMs",
                    round(rows::numeric / calls, 1) AS "rowsPerCall",
                    round((shared_blks_hit + shared_blks_read)::numeric / calls, 1) AS "buffersPerCall",
                    left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS query
               FROM pg_stat_statements
              WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND query NOT LIKE '%pg_stat_statements%'
              ORDER BY total_exec_time DESC LIMIT 12) t`,
          url,
        ),
      );
      const statements = rows.map((row) => ({
        ...row,
        perSubmission: submissions > 0 ? +(row.calls / submissions).toFixed(2) : null,
      }));
      return { submissions, statements };
    },
  };
}

module.exports = {
  serverStatements,
  VENDORS,
  vendorName,
  purchaseLadder,
  SUBMISSION,
  startService,
  run,
  runAtRate,
  measureService,
  startReceiver,
  summarize,
  writeResults,
  psql,
  psqlValue,
  companyFloorSeconds,
  FIKEN_RPS,
};
