'use strict';
/**
 * What the bytes alone cost: the CPU the daily check's year-window run needs just to render, decode
 * and parse the JSON it reads, before any HTTP, socket, database or garbage-collection work — to
 * set against the CPU that two cores offer within 1.2 × the providers' floor
 * (bench/daily-check.js, docs/performance.md).
 *
 *   npm run build && node bench/daily-check-bytes.js
 *
 * The sandbox runs in this process without latency or pacing. For BENCH_SAMPLE companies of each
 * provider (default 20) it reads what the adapters read in a year-window check — Tripletex's
 * vouchers and invoices with the adapters' `fields`, Fiken's journal entries and open invoices, in
 * the adapters' page sizes — and keeps every body as received. Then, on this one thread, three
 * times over: decode each body to text (as `nodeGet` does), `JSON.parse` it (as the clients do),
 * and `JSON.stringify` the parsed value again (what a provider does to answer). CPU seconds from
 * `process.cpuUsage`, scaled to BENCH_COMPANIES (default 1 000, half of each provider).
 * The floor is computed as in bench/daily-check.js from the requests a company needed.
 */
const path = require('node:path');
const { writeResults, companyFloorSeconds } = require('./lib');

const DIST = path.resolve(__dirname, '..', 'dist');
const SAMPLE = Number(process.env.BENCH_SAMPLE ?? 20);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 1000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 2000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const TARGET = 1.2;
const CORES = 2;
// The adapters' page sizes and fields (libs/providers: tripletex.config.ts, fiken.config.ts, *.provider.ts).
const TRIPLETEX_PAGE = 1000;
const FIKEN_PAGE = 100;
const VOUCHER_FIELDS = 'id,number,date,description,attachment(id),postings(amountGross)';
const INVOICE_FIELDS =
  'id,invoiceNumber,invoiceDate,invoiceDueDate,customer(id,name),amount,amountOutstanding,currency';
const REDIRECT_URI = 'http://localhost:3000/v1/oauth/fiken/callback';

const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

/**
 * Every page of a list, as the bodies arrived, stopping where the clients stop: at a short page,
 * or at Fiken's last page by its `Fiken-Api-Page-Count`. `size` counts a parsed body's elements.
 */
async function pages(pageUrl, authorization, pageSize, size) {
  const bodies = [];
  for (let page = 0; ; page++) {
    const response = await fetch(pageUrl(page), { headers: { authorization } });
    if (response.status !== 200) throw new Error(`GET ${pageUrl(page)}: ${response.status} ${await response.text()}`);
    const body = Buffer.from(await response.arrayBuffer());
    bodies.push(body);
    const pageCount = response.headers.get('fiken-api-page-count');
    if (size(JSON.parse(body.toString('utf8'))) < pageSize || (pageCount !== null && page + 1 >= Number(pageCount)))
      return bodies;
  }
}

async function tripletexBodies(api, index, from, to) {
  const { SANDBOX_TRIPLETEX_CONSUMER_TOKEN, tripletexEmployeeToken } = require(
    path.join(DIST, 'apps/provider-sandbox/src/constants.js'),
  );
  const session = new URLSearchParams({
    consumerToken: SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
    employeeToken: tripletexEmployeeToken(index),
    expirationDate: isoDay(Date.now() + 2 * 86_400_000),
  });
  const created = await fetch(`${api}/token/session/:create?${session}`, { method: 'PUT' });
  const token = (await created.json()).value.token;
  const authorization = `Basic ${Buffer.from(`0:${token}`).toString('base64')}`;
  const list = (resource, query) =>
    pages(
      (page) =>
        `${api}${resource}?${new URLSearchParams({ ...query, from: String(page * TRIPLETEX_PAGE), count: String(TRIPLETEX_PAGE) })}`,
      authorization,
      TRIPLETEX_PAGE,
      (body) => body.values.length,
    );
  const tenYearsAgo = isoDay(Date.parse(`${to}T00:00:00Z`) - 3_650 * 86_400_000);
  const tomorrow = isoDay(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  return [
    ...(await list('/ledger/voucher', { dateFrom: from, dateTo: tomorrow, fields: VOUCHER_FIELDS })),
    ...(await list('/invoice', { invoiceDateFrom: tenYearsAgo, invoiceDateTo: tomorrow, fields: INVOICE_FIELDS })),
  ];
}

async function fikenBodies(url, index, from, to) {
  const { SANDBOX_FIKEN_CLIENT_ID, SANDBOX_FIKEN_CLIENT_SECRET, fikenCompanySlug } = require(
    path.join(DIST, 'apps/provider-sandbox/src/constants.js'),
  );
  const slug = fikenCompanySlug(index);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const approved = await fetch(`${url}/fiken/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: form,
    body: new URLSearchParams({
      client_id: SANDBOX_FIKEN_CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      state: 'bench',
      company: slug,
      decision: 'approve',
    }),
  });
  const code = new URL(approved.headers.get('location')).searchParams.get('code');
  const exchanged = await fetch(`${url}/fiken/oauth/token`, {
    method: 'POST',
    headers: {
      ...form,
      authorization: `Basic ${Buffer.from(`${SANDBOX_FIKEN_CLIENT_ID}:${SANDBOX_FIKEN_CLIENT_SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }),
  });
  const authorization = `Bearer ${(await exchanged.json()).access_token}`;
  const company = `${url}/fiken/api/v2/companies/${slug}`;
  const list = (resource, query) =>
    pages(
      (page) =>
        `${company}${resource}?${new URLSearchParams({ ...query, page: String(page), pageSize: String(FIKEN_PAGE) })}`,
      authorization,
      FIKEN_PAGE,
      (body) => body.length,
    );
  return [
    ...(await list('/journalEntries', { dateGe: from, dateLe: to })),
    ...(await list('/invoices', { settled: 'false', issueDateLe: to })),
  ];
}

function cpuSeconds(work) {
  const before = process.cpuUsage();
  const value = work();
  const used = process.cpuUsage(before);
  return { value, seconds: (used.user + used.system) / 1e6 };
}

async function main() {
  const { createSandbox } = require(path.join(DIST, 'apps/provider-sandbox/src/sandbox.js'));
  const sandbox = createSandbox({
    seed: 4102,
    entriesPerCompany: ENTRIES,
    invoicesPerCompany: 60,
    latencyMs: 0,
    tripletex: { companies: SAMPLE, rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
    fiken: { companies: SAMPLE, requestsPerSecond: 1_000_000, accessTokenTtlSeconds: 7200 },
  });
  const running = await sandbox.start(0);
  const to = isoDay(Date.now());
  const from = isoDay(Date.now() - 365 * 86_400_000);
  const tripletex = [];
  const fiken = [];
  let slowest = 0;
  for (let index = 0; index < SAMPLE; index++) {
    const t = await tripletexBodies(`${running.url}/tripletex/v2`, index, from, to);
    const f = await fikenBodies(running.url, index, from, to);
    tripletex.push(...t);
    fiken.push(...f);
    // Tripletex's session is one request more, as in the sandbox's call log that bench/daily-check.js counts.
    slowest = Math.max(
      slowest,
      companyFloorSeconds('tripletex', t.length + 1, LATENCY_MS),
      companyFloorSeconds('fiken', f.length, LATENCY_MS),
    );
  }
  await running.close();

  const scale = COMPANIES / 2 / SAMPLE;
  const bytes = (bodies) => bodies.reduce((sum, body) => sum + body.length, 0);
  const bodies = [...tripletex, ...fiken];
  const floorSeconds = slowest;
  const budget = CORES * TARGET * floorSeconds;
  const rounds = [];
  for (let round = 0; round < 3; round++) {
    const decode = cpuSeconds(() => bodies.map((body) => body.toString('utf8')));
    const parse = cpuSeconds(() => decode.value.map((text) => JSON.parse(text)));
    const render = cpuSeconds(() => parse.value.map((value) => JSON.stringify(value)));
    const figures = { decode: decode.seconds * scale, parse: parse.seconds * scale, render: render.seconds * scale };
    rounds.push({ ...figures, total: figures.decode + figures.parse + figures.render });
  }
  const median = (key) => rounds.map((round) => round[key]).sort((a, b) => a - b)[1];
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    companies: COMPANIES,
    entriesPerCompany: ENTRIES,
    sampledPerProvider: SAMPLE,
    megabytes: +((bytes(bodies) * scale) / 1e6).toFixed(0),
    pagesPerCompany: { tripletex: tripletex.length / SAMPLE, fiken: fiken.length / SAMPLE },
    bytesPerPage: {
      tripletex: Math.round(bytes(tripletex) / tripletex.length),
      fiken: Math.round(bytes(fiken) / fiken.length),
    },
    floorSeconds,
    cpuSecondsWithinTarget: +budget.toFixed(2),
    cpuSeconds: Object.fromEntries(['decode', 'parse', 'render', 'total'].map((key) => [key, +median(key).toFixed(2)])),
    rounds: rounds.map((round) =>
      Object.fromEntries(Object.entries(round).map(([key, value]) => [key, +value.toFixed(2)])),
    ),
  };
  writeResults('daily-check-bytes.json', result);
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `${result.megabytes} MB of JSON for ${COMPANIES} companies: decode ${result.cpuSeconds.decode} s + parse ${result.cpuSeconds.parse} s + render ` +
      `${result.cpuSeconds.render} s = ${result.cpuSeconds.total} CPU seconds (median of 3), against ${result.cpuSecondsWithinTarget} s ` +
      `that ${CORES} cores offer within ${TARGET} × the ${floorSeconds} s floor`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
