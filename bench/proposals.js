'use strict';
/**
 * POST /v1/proposals on the auto-approve path against GET /v1/whoami, in one run, on real
 * PostgreSQL, with 10 000 patterns in the company: BENCH_ROUNDS alternating rounds of BENCH_SECONDS
 * each (3 × 5 s), medians. Then submissions at 80 % of the median maximum, evenly spaced (open
 * loop), for BENCH_AT_RATE_SECONDS (15) after BENCH_AT_RATE_WARM_UP_SECONDS (3) at that rate that are
 * not counted, to read p99 under that load: BENCH_AT_RATE_ROUNDS (3) such runs, the median p99
 * reported with every run's. Targets (issue 3): submit ≥ 0.5 × whoami's throughput, p99 ≤ 25 ms at
 * 80 % load. BENCH_AT_RATE_RPS sets the open-loop rate instead of 80 % (latency against load);
 * BENCH_AT_RATE_OF=whoami sends whoami in the open-loop runs, at 80 % of whoami's maximum;
 * BENCH_AT_RATE_BURST sends the open-loop requests that many at a time, at the same rate.
 *
 *   npm run build && node bench/proposals.js
 *
 * The demo company's gateway callback points at a receiver in this process that answers 200, so the
 * outbox dispatcher in the service delivers every auto-approval notice as it would in production.
 * BENCH_WORKERS=off measures an API-only instance instead: dispatcher, sealer, executor and daily
 * job off (another instance runs them in that deployment).
 *
 * Every run also reports what the service itself spent (from its /metrics): CPU in cores, the share
 * of the time its event loop was busy (1 = saturated), CPU per request.
 */
const { startService, run, runAtRate, measureService, startReceiver, summarize, writeResults, psql } = require('./lib');

const PATTERNS = Number(process.env.BENCH_PATTERNS ?? 10000);
const WORKERS = process.env.BENCH_WORKERS !== 'off';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const AT_RATE_SECONDS = Number(process.env.BENCH_AT_RATE_SECONDS ?? 15);
const AT_RATE_WARM_UP_SECONDS = Number(process.env.BENCH_AT_RATE_WARM_UP_SECONDS ?? 3);
const AT_RATE_ROUNDS = Number(process.env.BENCH_AT_RATE_ROUNDS ?? 3);
const AT_RATE_RPS = process.env.BENCH_AT_RATE_RPS ? Number(process.env.BENCH_AT_RATE_RPS) : undefined;
// BENCH_AT_RATE_OF=whoami: the open-loop runs send GET /v1/whoami at 80 % of its own maximum instead
// (the control: the same client and machine, a route that sends no statement to PostgreSQL).
const AT_RATE_OF_WHOAMI = process.env.BENCH_AT_RATE_OF === 'whoami';
// BENCH_AT_RATE_BURST=20: the open-loop requests go 20 at a time, at the same rate (the arrival
// pattern's own cost: a closed loop of 50 connections also hands the service requests in groups).
const AT_RATE_BURST = Number(process.env.BENCH_AT_RATE_BURST ?? 1);

/** The result whose `key` is the median (the rest of its figures come with it). */
function median(results, key = 'requestsPerSecond') {
  const sorted = [...results].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor(sorted.length / 2)];
}

function workerEnv() {
  if (WORKERS) return {};
  return {
    OUTBOX_DISPATCH_ENABLED: 'false',
    EVENT_SEAL_INTERVAL_MS: '0',
    EXECUTOR_ENABLED: 'false',
    DAILY_CHECK_ENABLED: 'false',
  };
}

async function main() {
  const duration = Number(process.env.BENCH_SECONDS ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const receiver = await startReceiver('/callback');
  const service = await startService({ port: 3901, env: workerEnv() });
  try {
    // 10 000 patterns with varied, realistic-looking merchant keys (trigram-diverse).
    psql(
      `INSERT INTO patterns (id, company_id, merchant_key, merchant_name, account_code, vat_rate, approvals,
        amount_count, amount_mean, amount_m2, amount_min, amount_max, verified, version, created_at, updated_at)
      SELECT 'bench-' || g, 'demo', 'merchant ' || md5(g::text), 'Merchant ' || md5(g::text), '6800', '25', 3,
        3, 50000, 0, 40000, 60000, true, 1, now(), now()
      FROM generate_series(1, ${PATTERNS}) AS g`,
      service.databaseUrl,
    );
    // What autovacuum does to a live table after a bulk load: statistics, and the trigram index's
    // pending list merged (GIN's fast-update list is scanned linearly by every lookup until then:
    // 0.9 ms per lookup at 10 000 fresh patterns, 0.03 ms once merged).
    psql('VACUUM ANALYZE patterns', service.databaseUrl);
    const admin = { authorization: `Bearer ${service.token({ role: 'admin' })}`, 'content-type': 'application/json' };
    const configured = await fetch(`${service.url}/v1/config/company`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ gatewayCallback: { kind: 'webhook', url: receiver.url } }),
    });
    if (configured.status !== 200)
      throw new Error(`configuring the callback: ${configured.status} ${await configured.text()}`);
    const created = await fetch(`${service.url}/v1/patterns`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25', verified: true }),
    });
    if (created.status !== 201) throw new Error(`creating the pattern: ${created.status} ${await created.text()}`);

    const employee = {
      authorization: `Bearer ${service.token({ role: 'employee', sub: 'ola@demo.no' })}`,
      'content-type': 'application/json',
    };
    const body = JSON.stringify({
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
    const probe = await (
      await fetch(`${service.url}/v1/proposals`, { method: 'POST', headers: employee, body })
    ).json();
    if (probe.route !== 'auto_approve') throw new Error(`expected the auto-approve path, got ${JSON.stringify(probe)}`);

    const submit = { url: `${service.url}/v1/proposals`, method: 'POST', headers: employee, body };
    const whoamiRequest = { url: `${service.url}/v1/whoami`, headers: employee };
    await run({ ...whoamiRequest, connections, duration: 3 });
    await run({ ...submit, connections, duration: 3 });
    // Alternating rounds, medians: this machine's capacity drifts by ±15 % over a minute, and one
    // long run of each would compare two different machines.
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({
        whoami: summarize(
          'GET /v1/whoami',
          await measureService(service.url, () => run({ ...whoamiRequest, connections, duration })),
        ),
        proposals: summarize(
          'POST /v1/proposals (auto-approve)',
          await measureService(service.url, () => run({ ...submit, connections, duration })),
        ),
      });
    }
    const whoami = median(rounds.map((r) => r.whoami));
    const proposals = median(rounds.map((r) => r.proposals));
    const [label, request, maximum] = AT_RATE_OF_WHOAMI
      ? ['GET /v1/whoami', whoamiRequest, whoami]
      : ['POST /v1/proposals', submit, proposals];
    const rate = AT_RATE_RPS ?? Math.max(1, Math.floor(maximum.requestsPerSecond * 0.8));
    const share = `${Math.round((rate / maximum.requestsPerSecond) * 100)} %`;
    // Repeated, median: one stall of this shared machine (a neighbour, PostgreSQL's background work)
    // during a 15 s run decides its p99 — identical runs read 8 ms and 130 ms.
    const atRateRuns = [];
    for (let round = 0; round < AT_RATE_ROUNDS; round++) {
      atRateRuns.push(
        summarize(
          `${label} at ${rate} req/s (${share}, ${AT_RATE_BURST > 1 ? `${AT_RATE_BURST} at a time` : 'evenly spaced'}), run ${round + 1}`,
          await runAtRate({
            ...request,
            rate,
            duration: AT_RATE_SECONDS,
            warmUp: AT_RATE_WARM_UP_SECONDS,
            burst: AT_RATE_BURST,
            serviceUrl: service.url,
          }),
        ),
      );
    }
    const atRate = {
      ...median(atRateRuns, 'p99ms'),
      name: `${label} at ${rate} req/s (median p99 of ${AT_RATE_ROUNDS})`,
    };
    console.table(rounds.flatMap((r) => [r.whoami, r.proposals]));
    console.table(atRateRuns);
    const ratio = +(proposals.requestsPerSecond / whoami.requestsPerSecond).toFixed(2);
    console.table([
      { ...whoami, name: `GET /v1/whoami (median of ${ROUNDS})` },
      { ...proposals, name: `POST /v1/proposals (median of ${ROUNDS})` },
      atRate,
    ]);
    console.log(
      `workers in the process: ${WORKERS ? 'yes' : 'no'}; callback notices delivered: ${receiver.delivered()}`,
    );
    console.log(
      `submit / whoami throughput ratio: ${ratio} (target ≥ 0.5); ${label} p99 at ${rate} req/s (${share}): ${atRate.p99ms} ms, median of ${atRateRuns.map((r) => r.p99ms).join(' / ')} (target ≤ 25)`,
    );
    console.log(
      `the service's event loop busy ${maximum.loopBusy} of the time at the maximum (${maximum.cpuUsPerRequest} µs of CPU per request), ${atRateRuns.map((r) => r.loopBusy).join(' / ')} at ${rate} req/s (${atRateRuns.map((r) => r.cpuUsPerRequest).join(' / ')} µs)`,
    );
    const variant = `${AT_RATE_OF_WHOAMI ? '-whoami' : ''}${AT_RATE_RPS ? `-at-${AT_RATE_RPS}` : ''}${AT_RATE_BURST > 1 ? `-burst-${AT_RATE_BURST}` : ''}`;
    writeResults(`proposals${WORKERS ? '' : '-api-only'}${variant}.json`, {
      date: new Date().toISOString(),
      patterns: PATTERNS,
      workers: WORKERS,
      connections,
      duration,
      rounds,
      whoami,
      proposals,
      atRate,
      atRateRuns,
      atRateWarmUpSeconds: AT_RATE_WARM_UP_SECONDS,
      atRateBurst: AT_RATE_BURST,
      ratio,
      delivered: receiver.delivered(),
    });
  } finally {
    await service.stop();
    receiver.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
