'use strict';
/**
 * Prints the last run's figures (bench/results/anchors.json, http.json, events.json, scoring.json,
 * and http-api-only.json when BENCH_WORKERS=off ran) as one markdown table, with the machine,
 * Node's version and the date, against the targets. The HTTP targets are ratios to the anchors of
 * the same `npm run bench`: the bare Nest app's whoami and its one keyed INSERT (the floor).
 *
 *   node bench/report.js
 */
const fs = require('node:fs');
const path = require('node:path');

const RESULTS = path.join(__dirname, 'results');

function read(file) {
  const full = path.join(RESULTS, file);
  return fs.existsSync(full) ? JSON.parse(fs.readFileSync(full, 'utf8')) : null;
}

const verdict = (met) => (met ? 'met' : '**missed**');
const ms = (value) => `${value} ms`;

function main() {
  const anchors = read('anchors.json');
  const http = read('http.json');
  const events = read('events.json');
  const scoring = read('scoring.json');
  const rows = [];
  const floor = anchors?.medians.bareKeyedInsert.requestsPerSecond;
  if (anchors) {
    const { bareWhoami, bareKeyedInsert, serviceHealth, serviceWhoami } = anchors.medians;
    const { serviceWhoamiVsBareWhoami: whoamiRatio, serviceHealthVsBareWhoami: healthRatio } = anchors.ratios;
    rows.push(
      [
        `anchor: bare Nest + RS256, GET /v1/whoami, closed loop, ${anchors.connections} connections`,
        `${bareWhoami.requestsPerSecond} req/s (p99 ${ms(bareWhoami.p99ms)})`,
        '1',
        '',
      ],
      [
        'anchor (the floor): the same app, one keyed INSERT … ON CONFLICT DO NOTHING',
        `${bareKeyedInsert.requestsPerSecond} req/s (p99 ${ms(bareKeyedInsert.p99ms)})`,
        '',
        '',
      ],
      [
        'service GET /health',
        `${serviceHealth.requestsPerSecond} req/s = **${healthRatio} × bare whoami**`,
        '≥ 0.9 ×',
        verdict(healthRatio >= 0.9),
      ],
      [
        'service GET /v1/whoami (rate limit in memory)',
        `${serviceWhoami.requestsPerSecond} req/s = **${whoamiRatio} × bare whoami**`,
        '≥ 0.8 ×',
        verdict(whoamiRatio >= 0.8),
      ],
    );
  }
  if (http) {
    const { whoami, keyed, openLoop, receipt, ratio } = http;
    rows.push(
      [
        `service GET /v1/whoami in the keyed benchmark's rounds, closed loop, ${http.connections} connections`,
        `${whoami.requestsPerSecond} req/s (p99 ${ms(whoami.p99ms)})`,
        '—',
        '',
      ],
      floor
        ? [
            `POST /v1/proposals, fresh Idempotency-Key, auto-approve, ${http.patterns} patterns, closed loop`,
            `${keyed.requestsPerSecond} req/s = **${+(keyed.requestsPerSecond / floor).toFixed(2)} × the floor** (${ratio} × whoami)`,
            '≥ 0.35 × the floor',
            verdict(keyed.requestsPerSecond / floor >= 0.35),
          ]
        : [
            `POST /v1/proposals, fresh Idempotency-Key, auto-approve, ${http.patterns} patterns, closed loop`,
            `${keyed.requestsPerSecond} req/s = ${ratio} × whoami (no anchors.json: run bench/anchors.js for the floor)`,
            '≥ 0.35 × the floor',
            '',
          ],
      [
        `the same, open loop at ${Math.round(openLoop.share * 100)} % of that (${openLoop.rate} req/s)`,
        `p50 ${ms(openLoop.p50ms)}, **p99 ${ms(openLoop.p99ms)}**`,
        'p99 ≤ 25 ms',
        verdict(openLoop.p99ms <= 25 && openLoop.non2xx === 0 && openLoop.errors === 0),
      ],
      [
        `the same with a ${Math.round(receipt.bytes / 1024)} KiB receipt, closed loop, ${receipt.connections} connections`,
        `${receipt.requestsPerSecond} req/s, p50 ${ms(receipt.p50ms)}, p99 ${ms(receipt.p99ms)}`,
        '—',
        '',
      ],
    );
  }
  const apiOnly = read('http-api-only.json');
  if (apiOnly) {
    rows.push([
      'the keyed submission on an API-only instance (`BENCH_WORKERS=off`), closed loop',
      `${apiOnly.keyed.requestsPerSecond} req/s = ${apiOnly.ratio} × whoami; open loop p99 ${ms(apiOnly.openLoop.p99ms)}`,
      '—',
      '',
    ]);
  }
  if (events) {
    for (const query of events.queries) {
      rows.push([
        `${query.name} (${events.events.toLocaleString('en')} events, open loop ${events.rate} req/s)`,
        `p50 ${ms(query.p50ms)}, **p99 ${ms(query.p99ms)}**`,
        'p99 ≤ 20 ms',
        verdict(query.p99ms <= 20 && query.non2xx === 0 && query.errors === 0),
      ]);
    }
  }
  if (scoring) {
    const [total, lookup, engine] = scoring.results;
    rows.push(
      [
        `scoring: the submission read + ConfidenceEngine, ${scoring.patterns.toLocaleString('en')} patterns, in process`,
        `p50 ${ms(total.p50ms)}, **p99 ${ms(total.p99ms)}**`,
        'p99 ≤ 2 ms',
        verdict(total.p99ms <= 2),
      ],
      ['— of which the submission read (PostgreSQL)', `p50 ${ms(lookup.p50ms)}, p99 ${ms(lookup.p99ms)}`, '', ''],
      ['— of which ConfidenceEngine.score', `p50 ${ms(engine.p50ms)}, p99 ${ms(engine.p99ms)}`, '', ''],
    );
  }
  if (rows.length === 0) {
    console.error('no results in bench/results: run `npm run bench` first');
    process.exit(1);
  }
  const first = anchors ?? http ?? events ?? scoring;
  console.log(`Machine: ${first.machine}; Node ${first.node}; ${first.date.slice(0, 10)}\n`);
  console.log('| benchmark | measured | target | |');
  console.log('| --- | --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

main();
