'use strict';
/**
 * The API's hot paths over HTTP, in one run, on real PostgreSQL, with BENCH_PATTERNS (10 000)
 * patterns in the company:
 *
 * - GET /v1/whoami: the full gateway guard (RS256, claims, company, permission, rate limit), the
 *   anchor every route is compared with;
 * - POST /v1/proposals with a fresh Idempotency-Key per request (what a retrying gateway sends), on
 *   the auto-approve path: closed-loop maximum (autocannon, BENCH_CONNECTIONS), then open loop at
 *   BENCH_OPEN_LOOP_SHARE (0.5) of that maximum, evenly spaced, for p50/p99;
 * - the same submission carrying a 1 MB PDF receipt (closed loop, BENCH_RECEIPT_CONNECTIONS).
 *
 * whoami and keyed submission alternate for BENCH_ROUNDS rounds of BENCH_SECONDS each and the
 * medians are kept: a shared machine's capacity drifts over a minute.
 *
 * The service runs its workers as a single instance does (outbox dispatcher, event sealer,
 * executor, daily job), so each submission's notice is delivered and its events sealed in the
 * same process. BENCH_WORKERS=off measures an API-only instance instead (→ http-api-only.json).
 *
 *   npm run build && node bench/http.js        → bench/results/http.json
 */
const { randomUUID } = require('node:crypto');
const {
  startService,
  run,
  runAtRate,
  measureService,
  startReceiver,
  summarize,
  writeResults,
  psql,
  psqlValue,
  serverStatements,
  SUBMISSION,
  VENDORS,
  vendorName,
  purchaseLadder,
} = require('./lib');

const PATTERNS = Number(process.env.BENCH_PATTERNS ?? 10000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const OPEN_LOOP_SHARE = Number(process.env.BENCH_OPEN_LOOP_SHARE ?? 0.5);
const OPEN_LOOP_SECONDS = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 20);
const OPEN_LOOP_WARM_UP_SECONDS = Number(process.env.BENCH_OPEN_LOOP_WARM_UP_SECONDS ?? 3);
const RECEIPT_BYTES = Number(process.env.BENCH_RECEIPT_BYTES ?? 1024 * 1024);
const RECEIPT_CONNECTIONS = Number(process.env.BENCH_RECEIPT_CONNECTIONS ?? 4);
const RECEIPT_SECONDS = Number(process.env.BENCH_RECEIPT_SECONDS ?? 10);
const WORKERS = process.env.BENCH_WORKERS !== 'off';
const API_ONLY_ENV = {
  OUTBOX_DISPATCH_ENABLED: 'false',
  EVENT_SEAL_INTERVAL_MS: '0',
  EXECUTOR_ENABLED: 'false',
  DAILY_CHECK_ENABLED: 'false',
};

/** The result whose `key` is the median (the rest of its figures come with it). */
function median(results, key = 'requestsPerSecond') {
  const sorted = [...results].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Each submission's own purchase (bench/lib.js purchaseLadder): 100.00 to about 200 NOK. */
const nextPurchase = purchaseLadder(100);

/** The request body of a purchase: the benchmark's expense with the purchase's merchant, amount and date. */
function bodyOfPurchase(submission, { merchant, amount, date }) {
  return { ...submission, merchant, amount, date };
}

/**
 * An autocannon request that carries a fresh Idempotency-Key and a purchase of its own (`bodyOf`,
 * given `nextPurchase()`) each time it is sent.
 */
function keyed({ url, headers, bodyOf }) {
  return {
    url,
    method: 'POST',
    headers,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'idempotency-key': randomUUID() },
          body: bodyOf(nextPurchase()),
        }),
      },
    ],
  };
}

/**
 * A valid one-page PDF of `size` bytes, as the receipt check parses it (catalog, page tree, page,
 * cross-reference table, trailer), its content stream padded with a comment to the size.
 */
function pdfOf(size) {
  const assemble = (content) => {
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 210 297] /Resources << >> /Contents 4 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ];
    let body = '%PDF-1.7\n';
    const offsets = objects.map((object, i) => {
      const offset = body.length;
      body += `${i + 1} 0 obj\n${object}\nendobj\n`;
      return offset;
    });
    const xref = body.length;
    body += `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
    return Buffer.from(`${body}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1');
  };
  // A comment line of `filler` bytes; /Length and the offsets grow by a digit or two with it.
  let filler = size - assemble('BT ET').length;
  for (let attempt = 0; attempt < 4 && filler >= 2; attempt++) {
    const bytes = assemble(`%${'x'.repeat(filler - 2)}\nBT ET`);
    if (bytes.length === size) return bytes;
    filler -= bytes.length - size;
  }
  throw new RangeError(`no receipt PDF of exactly ${size} bytes`);
}

async function seedPatterns(service) {
  // Varied, realistic-looking merchant keys (trigram-diverse), as a company's history would have.
  psql(
    `INSERT INTO patterns (id, company_id, merchant_key, merchant_name, account_code, vat_rate, approvals,
      amount_count, amount_mean, amount_m2, amount_min, amount_max, verified, version, created_at, updated_at)
    SELECT 'bench-' || g, 'demo', 'merchant ' || md5(g::text), 'Merchant ' || md5(g::text), '6800', '25', 3,
      3, 50000, 0, 40000, 60000, true, 1, now(), now()
    FROM generate_series(1, ${PATTERNS}) AS g`,
    service.databaseUrl,
  );
  // What autovacuum does to a live table after a bulk load: statistics, and the trigram index's
  // pending list merged (a GIN index's fast-update list is scanned linearly until then).
  psql('VACUUM ANALYZE patterns', service.databaseUrl);
}

async function post(url, headers, body) {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function main() {
  const receiver = await startReceiver('/callback');
  const service = await startService({ port: 3901, env: WORKERS ? {} : API_ONLY_ENV });
  try {
    await seedPatterns(service);
    const admin = { authorization: `Bearer ${service.token({ role: 'admin' })}`, 'content-type': 'application/json' };
    // The gateway callback answers 200, so the outbox dispatcher delivers every auto-approval notice.
    const configured = await fetch(`${service.url}/v1/config/company`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ gatewayCallback: { kind: 'webhook', url: receiver.url } }),
    });
    if (configured.status !== 200) throw new Error(`configuring the callback: ${configured.status}`);
    for (let vendor = 0; vendor < VENDORS; vendor++) {
      await post(`${service.url}/v1/patterns`, admin, {
        merchantName: vendorName(vendor),
        accountCode: SUBMISSION.accountCode,
        vatRate: SUBMISSION.vatRate,
        verified: true,
      });
    }

    const employee = {
      authorization: `Bearer ${service.token({ role: 'employee', sub: 'ola@demo.no' })}`,
      'content-type': 'application/json',
    };
    const submission = SUBMISSION;
    const probe = await post(
      `${service.url}/v1/proposals`,
      { ...employee, 'idempotency-key': randomUUID() },
      bodyOfPurchase(submission, nextPurchase()),
    );
    if (probe.route !== 'auto_approve') throw new Error(`expected the auto-approve path, got ${JSON.stringify(probe)}`);

    const whoamiRequest = { url: `${service.url}/v1/whoami`, headers: employee };
    const submitRequest = keyed({
      url: `${service.url}/v1/proposals`,
      headers: employee,
      bodyOf: (purchase) => JSON.stringify(bodyOfPurchase(submission, purchase)),
    });
    // Warm-up: the JIT, the pools, the caches.
    await run({ ...whoamiRequest, connections: CONNECTIONS, duration: 3 });
    await run({ ...submitRequest, connections: CONNECTIONS, duration: 3 });

    // The database's own account of the closed-loop rounds, where the server loads pg_stat_statements.
    const statements = serverStatements(service.databaseUrl);
    const proposalsBefore = Number(psqlValue('SELECT count(*) FROM proposals', service.databaseUrl));
    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const whoami = await measureService(service.url, () =>
        run({ ...whoamiRequest, connections: CONNECTIONS, duration: SECONDS }),
      );
      const keyedMax = await measureService(service.url, () =>
        run({ ...submitRequest, connections: CONNECTIONS, duration: SECONDS }),
      );
      rounds.push({
        whoami: summarize('GET /v1/whoami', whoami),
        keyed: summarize('POST /v1/proposals, fresh key', keyedMax),
      });
    }
    const whoami = median(rounds.map((r) => r.whoami));
    const keyedMax = median(rounds.map((r) => r.keyed));
    const submitted = Number(psqlValue('SELECT count(*) FROM proposals', service.databaseUrl)) - proposalsBefore;
    const serverSide = statements?.read(submitted) ?? null;

    const rate = Math.max(1, Math.floor(keyedMax.requestsPerSecond * OPEN_LOOP_SHARE));
    const openLoop = summarize(
      `POST /v1/proposals, fresh key, open loop at ${rate} req/s`,
      await runAtRate({
        url: `${service.url}/v1/proposals`,
        method: 'POST',
        headers: employee,
        rate,
        duration: OPEN_LOOP_SECONDS,
        warmUp: OPEN_LOOP_WARM_UP_SECONDS,
        serviceUrl: service.url,
        vary: () => ({
          headers: { 'idempotency-key': randomUUID() },
          body: JSON.stringify(bodyOfPurchase(submission, nextPurchase())),
        }),
      }),
    );

    // The same receipt twice is a possible duplicate too: each request's PDF names its own purchase,
    // written into the content stream's padding comment so that the file stays a valid PDF.
    const pdf = pdfOf(RECEIPT_BYTES);
    const note = pdf.indexOf('stream\n%') + 'stream\n%'.length;
    const withReceipt = (purchase) => {
      pdf.write(` ${purchase.vendor} ${purchase.amount} ${purchase.date} `.padEnd(32, 'x'), note, 'latin1');
      const receipt = { filename: 'receipt.pdf', contentType: 'application/pdf', dataBase64: pdf.toString('base64') };
      return JSON.stringify({ ...bodyOfPurchase(submission, purchase), receipt });
    };
    const receiptRequest = keyed({ url: `${service.url}/v1/proposals`, headers: employee, bodyOf: withReceipt });
    await run({ ...receiptRequest, connections: RECEIPT_CONNECTIONS, duration: 2 });
    const receipt = summarize(
      `POST /v1/proposals, fresh key, ${Math.round(RECEIPT_BYTES / 1024)} KiB receipt`,
      await measureService(service.url, () =>
        run({ ...receiptRequest, connections: RECEIPT_CONNECTIONS, duration: RECEIPT_SECONDS }),
      ),
    );

    // Every keyed request stored a proposal of its own: no key was reused (no replay).
    const stored = Number(psqlValue('SELECT count(*) FROM proposals', service.databaseUrl));
    // And every one took the auto-approve path (none held for review as a possible duplicate).
    const notApproved = Number(
      psqlValue("SELECT count(*) FROM proposals WHERE route <> 'auto_approve'", service.databaseUrl),
    );
    if (notApproved > 0) throw new Error(`${notApproved} of ${stored} submissions left the auto-approve path`);

    const ratio = +(keyedMax.requestsPerSecond / whoami.requestsPerSecond).toFixed(2);
    console.table(rounds.flatMap((r) => [r.whoami, r.keyed]));
    console.table([whoami, keyedMax, openLoop, receipt]);
    console.log(`keyed / whoami throughput: ${ratio} (target ≥ 0.5)`);
    console.log(
      `keyed p99 at ${Math.round(OPEN_LOOP_SHARE * 100)} % of its maximum: ${openLoop.p99ms} ms (target ≤ 25)`,
    );
    console.log(`proposals stored: ${stored}; callback notices delivered: ${receiver.delivered()}`);
    if (serverSide) {
      console.log(`pg_stat_statements over the closed-loop rounds (${submitted} submissions):`);
      console.table(serverSide.statements);
    } else {
      console.log('pg_stat_statements is not loaded by this server (shared_preload_libraries): no server-side figures');
    }
    writeResults(WORKERS ? 'http.json' : 'http-api-only.json', {
      workers: WORKERS,
      patterns: PATTERNS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds,
      whoami,
      keyed: keyedMax,
      ratio,
      openLoop: { ...openLoop, share: OPEN_LOOP_SHARE, rate, seconds: OPEN_LOOP_SECONDS },
      receipt: { ...receipt, bytes: RECEIPT_BYTES, connections: RECEIPT_CONNECTIONS },
      proposalsStored: stored,
      delivered: receiver.delivered(),
      pgStatStatements: serverSide,
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
