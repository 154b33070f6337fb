'use strict';
/**
 * The soak: one instance with its workers (outbox, sealer, executor on the Tripletex sandbox) under
 * a steady mix for BENCH_SOAK_MINUTES (30), at a fixed rate — BENCH_SOAK_RPS, or half the keyed
 * submission's closed-loop maximum measured at the start. Each minute it records the p50/p99 of
 * the requests due in it (open loop: each latency counted from when its request was due) and the
 * service's RSS (/proc/<pid>/status); it prints both curves and writes bench/results/soak.json.
 * Beside them, each minute: the executions done in it, the backlog (proposals APPROVED and not yet
 * executed) and the vouchers the built-in Tripletex sandbox holds — it runs in the service's
 * process and keeps every voucher in memory, so they are part of the RSS.
 *
 * The mix, per 20 requests: 6 keyed submissions on the auto-approve path (a purchase of their
 * own each, as in bench/http.js), 2 submissions above the auto-approve limit (held for review), 2
 * approvals of those by an accountant, 4 reads of a recent proposal, 3 whoami, 3 pages of events.
 * The company's execution delay is 0, so approved and auto-approved proposals are executed on
 * the sandbox as the run goes.
 *
 * The verdict: the p99 of the last 5 minutes against that of minutes 2–5 (goal ≤ 1.5 ×), and
 * the RSS after warm-up (from minute 5 on) flat: the last minute's against minute 5's, and the
 * slope of a least-squares line through them.
 *
 *   npm run build && node bench/soak.js          BENCH_SOAK_MINUTES (30), BENCH_SOAK_RPS (half the maximum)
 */
const fs = require('node:fs');
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const {
  startService,
  run,
  startReceiver,
  summarize,
  writeResults,
  psqlValue,
  serverStatements,
  SUBMISSION,
  VENDORS,
  vendorName,
  purchaseLadder,
} = require('./lib');

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const FIXED_RPS = process.env.BENCH_SOAK_RPS ? Number(process.env.BENCH_SOAK_RPS) : undefined;
const MAX_SECONDS = Number(process.env.BENCH_SOAK_MAX_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** The benchmarks' expense with the next purchase of a ladder (bench/lib.js purchaseLadder). */
function submissionsOf(ladder) {
  return () => {
    const { merchant, amount, date } = ladder();
    return { ...SUBMISSION, merchant, amount, date };
  };
}

/** Auto-approve purchases: 100 to about 200 NOK, from merchants with verified patterns. */
const nextPurchase = submissionsOf(purchaseLadder(100));
/**
 * Purchases held for review: above the company's auto-approve limit (10 000 NOK by default), so
 * an accountant must approve them whatever the pattern says. Never a duplicate of the others.
 */
const reviewPurchase = submissionsOf(purchaseLadder(12_000));

/**
 * The client's pool stays under the service's connections per address (HTTP_MAX_CONNECTIONS_PER_ADDRESS,
 * 100 by default), as a gateway's must: with 256, a stall that puts more than 100 requests in flight
 * opens connections past the cap, which the service closes at once — the likely end of the few
 * requests the soaks saw end without an answer (status 0). Requests beyond the pool wait in it, and
 * their wait counts in their latency.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 90 });

/** One request; resolves with its status and parsed body (JSON or null). */
function send(baseUrl, { method = 'GET', path, headers = {}, body }) {
  return new Promise((resolve) => {
    const request = http.request(
      `${baseUrl}${path}`,
      { method, agent, headers: body ? { ...headers, 'content-type': 'application/json' } : headers },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          let parsed = null;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString());
          } catch {
            /* not JSON */
          }
          resolve({ status: response.statusCode, body: parsed });
        });
      },
    );
    request.on('error', (error) => resolve({ status: 0, body: null, error }));
    request.end(body ? JSON.stringify(body) : undefined);
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return +sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1);
}

/**
 * The vouchers the in-process Tripletex sandbox was sent (its control API's count of
 * `POST /ledger/voucher`; DATA_DIR/sandbox.json says where it listens), or null when unknown.
 */
async function sandboxVouchers(dataDir) {
  try {
    const { url } = JSON.parse(fs.readFileSync(`${dataDir}/sandbox.json`, 'utf8'));
    const counts = await (await fetch(`${url}/_sandbox/call-counts`)).json();
    return Object.entries(counts)
      .filter(([key]) => /^tripletex POST \S*ledger\/voucher$/.test(key))
      .reduce((sum, [, count]) => sum + count, 0);
  } catch {
    return null;
  }
}

/**
 * From the service's /metrics: garbage collection's seconds so far by kind (major, minor,
 * incremental, weakcb) and the JavaScript heap in use (MB), or null when unreadable.
 */
async function gcAndHeap(baseUrl) {
  try {
    const text = await (await fetch(`${baseUrl}/metrics`)).text();
    const gcSeconds = {};
    for (const match of text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} (\S+)$/gm))
      gcSeconds[match[1]] = Number(match[2]);
    const heap = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(text);
    return { gcSeconds, heapUsedMb: heap ? Math.round(Number(heap[1]) / 2 ** 20) : null };
  } catch {
    return null;
  }
}

function rssMb(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

/** Least-squares slope of ys over xs. */
function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? null : +(xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / sxx).toFixed(2);
}

async function main() {
  const receiver = await startReceiver('/callback');
  const service = await startService({ port: 3906, env: { EXECUTOR_POLL_MS: '500' } });
  const tokens = {
    admin: `Bearer ${service.token({ role: 'admin' })}`,
    employee: `Bearer ${service.token({ role: 'employee', sub: 'ola@demo.no' })}`,
    accountant: `Bearer ${service.token({ role: 'accountant', sub: 'kari@demo.no' })}`,
  };
  const call = (who, request) =>
    send(service.url, { ...request, headers: { authorization: tokens[who], ...request.headers } });
  try {
    const configured = await call('admin', {
      method: 'PUT',
      path: '/v1/config/company',
      body: { gatewayCallback: { kind: 'webhook', url: receiver.url }, executionDelayMinutes: 0 },
    });
    if (configured.status !== 200) throw new Error(`configuring the company: ${configured.status}`);
    for (let vendor = 0; vendor < VENDORS; vendor++) {
      const saved = await call('admin', {
        method: 'POST',
        path: '/v1/patterns',
        body: {
          merchantName: vendorName(vendor),
          accountCode: SUBMISSION.accountCode,
          vatRate: SUBMISSION.vatRate,
          verified: true,
        },
      });
      if (saved.status >= 300) throw new Error(`saving a pattern: ${saved.status}`);
    }
    const keyed = () => ({
      method: 'POST',
      path: '/v1/proposals',
      headers: { 'idempotency-key': randomUUID() },
      body: nextPurchase(),
    });
    const probe = await call('employee', keyed());
    if (probe.body?.route !== 'auto_approve')
      throw new Error(`expected the auto-approve path: ${JSON.stringify(probe.body)}`);

    let rate = FIXED_RPS;
    let maximum;
    if (rate === undefined) {
      const submit = {
        url: `${service.url}/v1/proposals`,
        method: 'POST',
        headers: { authorization: tokens.employee, 'content-type': 'application/json' },
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({
              ...request,
              headers: { ...request.headers, 'idempotency-key': randomUUID() },
              body: JSON.stringify(nextPurchase()),
            }),
          },
        ],
      };
      maximum = summarize(
        'POST /v1/proposals, fresh key',
        await run({ ...submit, connections: CONNECTIONS, duration: MAX_SECONDS }),
      );
      rate = Math.max(1, Math.floor(maximum.requestsPerSecond / 2));
      console.log(`keyed maximum ${maximum.requestsPerSecond} req/s: the soak runs at ${rate} req/s`);
    }

    const recent = [probe.body.id];
    const pending = [];
    const next = (i) => {
      const slot = i % 20;
      if (slot < 6) return { kind: 'submit', who: 'employee', request: keyed() };
      if (slot < 8)
        return {
          kind: 'submitForReview',
          who: 'employee',
          request: {
            method: 'POST',
            path: '/v1/proposals',
            headers: { 'idempotency-key': randomUUID() },
            body: reviewPurchase(),
          },
        };
      if (slot < 10 && pending.length > 0)
        return {
          kind: 'approve',
          who: 'accountant',
          request: { method: 'POST', path: `/v1/review/${pending.shift()}/approve`, body: {} },
        };
      if (slot < 14)
        return {
          kind: 'getProposal',
          who: 'employee',
          request: { path: `/v1/proposals/${recent[i % recent.length]}` },
        };
      if (slot < 17) return { kind: 'whoami', who: 'employee', request: { path: '/v1/whoami' } };
      return { kind: 'events', who: 'accountant', request: { path: '/v1/events?limit=50' } };
    };

    // One bucket per minute of due times; a request's latency goes to the minute it was due in.
    const buckets = [];
    const stats = (bucket, index) => {
      const sorted = [...bucket.latencies].sort((x, y) => x - y);
      return {
        minute: index + 1,
        requests: sorted.length,
        errors: bucket.errors,
        failures: bucket.failures,
        p50ms: percentile(sorted, 50),
        p99ms: percentile(sorted, 99),
        rssMb: bucket.rssMb,
        heapUsedMb: bucket.heapUsedMb,
        gcMajorMs: bucket.gcMajorMs,
        gcMinorMs: bucket.gcMinorMs,
        sandboxVouchers: bucket.sandboxVouchers,
        executedInMinute: bucket.executedInMinute,
        backlog: bucket.backlog,
        executed: bucket.executed,
        byKind: bucket.byKind,
        latencies: sorted,
      };
    };
    const print = (row) =>
      console.log(
        `minute ${row.minute}: ${row.requests} requests, ${row.errors} errors ${JSON.stringify(row.failures)}, p50 ${row.p50ms} ms, ` +
          `p99 ${row.p99ms} ms, RSS ${row.rssMb} MB, heap ${row.heapUsedMb} MB, GC ${row.gcMajorMs} + ${row.gcMinorMs} ms (the sandbox holds ${row.sandboxVouchers} vouchers), ` +
          `${row.executedInMinute} executed (${row.executed} of the executions' rows), backlog ${row.backlog}`,
      );
    /**
     * At the end of a minute: the service's RSS, the sandbox's vouchers, the executions done and the
     * backlog then; the minute before is complete by now.
     */
    let executedBefore = 0;
    let gcBefore = {};
    const closeMinute = async () => {
      const bucket = buckets[buckets.length - 1];
      bucket.rssMb = rssMb(service.pid);
      const gc = await gcAndHeap(service.url);
      if (gc) {
        bucket.heapUsedMb = gc.heapUsedMb;
        // Milliseconds of the minute spent in major (mark-compact) and minor (scavenge) collections.
        bucket.gcMajorMs = Math.round(((gc.gcSeconds.major ?? 0) - (gcBefore.major ?? 0)) * 1000);
        bucket.gcMinorMs = Math.round(((gc.gcSeconds.minor ?? 0) - (gcBefore.minor ?? 0)) * 1000);
        gcBefore = gc.gcSeconds;
      }
      bucket.sandboxVouchers = await sandboxVouchers(service.dataDir);
      const [executed, rows, backlog] = psqlValue(
        "SELECT (SELECT count(*) FROM proposal_executions WHERE state = 'executed') || ' ' || " +
          "(SELECT count(*) FROM proposal_executions) || ' ' || (SELECT count(*) FROM proposals WHERE status = 'APPROVED')",
        service.databaseUrl,
      )
        .split(' ')
        .map(Number);
      bucket.executed = `${executed}/${rows}`;
      bucket.executedInMinute = executed - executedBefore;
      executedBefore = executed;
      bucket.backlog = backlog;
      if (buckets.length >= 2) print(stats(buckets[buckets.length - 2], buckets.length - 2));
    };
    const statements = serverStatements(service.databaseUrl);
    let earlyStatements = null;
    let lateFrom = null;
    let submitted = 0;
    const started = performance.now();
    const total = Math.round(MINUTES * 60 * rate);
    const inFlight = new Set();
    for (let i = 0; i < total; i++) {
      const due = started + (i / rate) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const minute = Math.floor((due - started) / 60_000);
      while (buckets.length <= minute) {
        if (buckets.length > 0) await closeMinute();
        // PostgreSQL's account of minutes 2–5 and of the last 5, the verdict's two windows.
        if (statements && buckets.length === 1) statements.reset();
        if (statements && buckets.length === 5) earlyStatements = statements.read(submitted);
        if (statements && buckets.length === MINUTES - 5 && MINUTES - 5 >= 5) {
          statements.reset();
          lateFrom = submitted;
        }
        buckets.push({ latencies: [], errors: 0, failures: {}, byKind: {} });
      }
      const { kind, who, request } = next(i);
      const bucket = buckets[minute];
      const promise = call(who, request).then((response) => {
        bucket.latencies.push(performance.now() - due);
        bucket.byKind[kind] = (bucket.byKind[kind] ?? 0) + 1;
        if (response.status < 200 || response.status >= 300) {
          bucket.errors++;
          bucket.failures[response.status] = (bucket.failures[response.status] ?? 0) + 1;
        }
        if (kind === 'submit' && response.body?.id) recent.push(response.body.id);
        if (kind === 'submit' || kind === 'submitForReview') submitted++;
        if (kind === 'submitForReview' && response.body?.status === 'PROPOSED') pending.push(response.body.id);
        if (recent.length > 500) recent.splice(0, recent.length - 500);
        inFlight.delete(promise);
      });
      inFlight.add(promise);
    }
    await closeMinute();
    await Promise.all(inFlight);
    const lateStatements = statements && lateFrom !== null ? statements.read(submitted - lateFrom) : null;
    const minutes = buckets.map(stats);
    print(minutes[minutes.length - 1]);

    // The curves and the verdict.
    const pooled = (rows) =>
      percentile(
        rows.flatMap((r) => r.latencies).sort((a, b) => a - b),
        99,
      );
    const early = minutes.slice(1, 5);
    const late = minutes.slice(-5);
    const earlyP99 = pooled(early);
    const lateP99 = pooled(late);
    const afterWarmUp = minutes.slice(4);
    const rssGrowth =
      afterWarmUp.length >= 2 ? +(afterWarmUp[afterWarmUp.length - 1].rssMb / afterWarmUp[0].rssMb).toFixed(2) : null;
    const verdict = {
      complete: minutes.length >= 10,
      p99Minutes2to5: earlyP99,
      p99Last5Minutes: lateP99,
      p99Ratio: earlyP99 && lateP99 ? +(lateP99 / earlyP99).toFixed(2) : null,
      p99Goal: 1.5,
      rssFromMinute5: afterWarmUp.map((r) => r.rssMb),
      rssGrowthAfterWarmUp: rssGrowth,
      rssSlopeMbPerMinute: slope(
        afterWarmUp.map((r) => r.minute),
        afterWarmUp.map((r) => r.rssMb),
      ),
    };
    console.table(minutes.map(({ latencies, byKind, failures, ...row }) => row));
    console.log('p99 by minute (ms):', minutes.map((r) => r.p99ms).join(' '));
    console.log('RSS by minute (MB):', minutes.map((r) => r.rssMb).join(' '));
    console.log('sandbox vouchers by minute:', minutes.map((r) => r.sandboxVouchers).join(' '));
    console.log('executed by minute:', minutes.map((r) => r.executedInMinute).join(' '));
    console.log('backlog by minute (approved, not executed):', minutes.map((r) => r.backlog).join(' '));
    if (earlyStatements && lateStatements) {
      // Statements of the last 5 minutes beside the same statements in minutes 2–5.
      const before = new Map(earlyStatements.statements.map((row) => [row.query, row]));
      console.table(
        lateStatements.statements.map((row) => ({
          query: row.query.slice(0, 60),
          perSubmission: `${before.get(row.query)?.perSubmission ?? '-'} → ${row.perSubmission}`,
          meanMs: `${before.get(row.query)?.meanMs ?? '-'} → ${row.meanMs}`,
          rowsPerCall: `${before.get(row.query)?.rowsPerCall ?? '-'} → ${row.rowsPerCall}`,
          buffersPerCall: `${before.get(row.query)?.buffersPerCall ?? '-'} → ${row.buffersPerCall}`,
        })),
      );
    } else if (!statements) {
      console.log('pg_stat_statements is not loaded by this server (shared_preload_libraries): no server-side figures');
    }
    console.log('GC by minute, major + minor (ms):', minutes.map((r) => `${r.gcMajorMs}+${r.gcMinorMs}`).join(' '));
    console.log('heap used by minute (MB):', minutes.map((r) => r.heapUsedMb).join(' '));
    console.log(
      verdict.complete
        ? `p99 last 5 minutes / minutes 2–5: ${verdict.p99Ratio} (goal ≤ 1.5); RSS after warm-up ×${rssGrowth}, ${verdict.rssSlopeMbPerMinute} MB/min`
        : `only ${minutes.length} minutes: too short for the verdict (needs 10 or more; the goal is measured over 30)`,
    );
    writeResults('soak.json', {
      minutesPlanned: MINUTES,
      rate,
      maximum,
      mix: '6 keyed auto-approve, 2 for review, 2 approvals, 4 GET proposal, 3 whoami, 3 events per 20',
      minutes: minutes.map(({ latencies, ...row }) => row),
      verdict,
      statements: { minutes2to5: earlyStatements, last5Minutes: lateStatements },
      delivered: receiver.delivered(),
    });
  } finally {
    agent.destroy();
    await service.stop();
    receiver.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
