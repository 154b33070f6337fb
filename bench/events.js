'use strict';
/**
 * GET /v1/events over a company with BENCH_EVENTS (1 000 000) events, on real PostgreSQL.
 *
 * The history is written with SQL (INSERT … SELECT over generate_series, not over HTTP), cloned
 * from the events and proposal row of one real submission, one proposal a minute: the latest
 * BENCH_PENDING (200) still pending (Proposed) — the review queue —, of the others one in 20
 * rejected (Proposed, Rejected) and the rest executed (Proposed, Approved, Executed). Then each typical paged query is sent open loop, evenly spaced,
 * at BENCH_EVENTS_RPS (50) for BENCH_EVENTS_SECONDS (10) after 2 s not counted, each request with
 * another cursor or window, and its p50/p99 read:
 *
 * - the whole history, 50 a page, from a cursor anywhere in it (a consumer catching up);
 * - `status=PROPOSED`: the pending proposals (the review queue), first page;
 * - `type=Approved`, 50 a page, from a cursor anywhere;
 * - `from`/`to`: one day's events;
 * - `correlationId`: one proposal's history.
 *
 * The service runs as an API-only instance (sealer, dispatcher, executor and daily job off): the
 * seeded history is not sealed, and sealing a million events is not what this measures.
 *
 *   npm run build && node bench/events.js       → bench/results/events.json
 */
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const { SUBMISSION, startService, runAtRate, summarize, writeResults, psql, psqlValue } = require('./lib');

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RPS = Number(process.env.BENCH_EVENTS_RPS ?? 50);
const SECONDS = Number(process.env.BENCH_EVENTS_SECONDS ?? 10);
const PENDING = Number(process.env.BENCH_PENDING ?? 200);
const PAGE = 50;
/** Events per 20 decided proposals: 1 rejected (2 events), 19 executed (3 each). */
const EVENTS_PER_20 = 2 + 19 * 3;
const START = Date.parse('2024-01-01T00:00:00Z');
const MINUTE = 60_000;

/** What became of the proposal number `g` of `proposals`: 0 pending, 1 rejected, 2 executed. */
const kindSql = (proposals) => `CASE WHEN g > ${proposals - PENDING} THEN 0 WHEN g % 20 = 1 THEN 1 ELSE 2 END`;

/** The proposal row's columns that differ from the template's, as SQL over the proposal's number `g`. */
const proposalOverrides = (proposals) => ({
  id: "'bench-p' || g",
  correlation_id: "'bench-c' || g",
  status: `(ARRAY['PROPOSED', 'REJECTED', 'EXECUTED'])[${kindSql(proposals)} + 1]`,
  submitted_at: `to_timestamp(${START / 1000} + g * 60 + 1)`,
  updated_at: `to_timestamp(${START / 1000} + g * 60 + 3)`,
});

/**
 * The SQL that writes `proposals` proposals and their events, cloned from the template proposal;
 * `columns`: the proposals table's.
 */
function seedSql(template, proposals, columns) {
  // One psql -c: one transaction.
  return `
    CREATE TEMP TABLE bench_shapes (kind int, sequence int, type text, status text, actor text, provider text,
      api_calls jsonb, confidence numeric, data jsonb);
    -- kind 0: pending, 1: rejected, 2: executed (kindSql).
    INSERT INTO bench_shapes
    SELECT k, 1, 'Proposed', 'PROPOSED', p.actor, p.provider, p.api_calls, p.confidence, p.data
      FROM events p, generate_series(0, 2) k WHERE p.proposal_id = '${template}' AND p.type = 'Proposed'
    UNION ALL
    SELECT 1, 2, 'Rejected', 'REJECTED', 'kari@demo.no', NULL, '[]', NULL, '{"reason": "duplicate"}'
    UNION ALL
    SELECT 2, 2, 'Approved', 'APPROVED', a.actor, a.provider, a.api_calls, a.confidence, a.data
      FROM events a WHERE a.proposal_id = '${template}' AND a.type = 'Approved'
    UNION ALL
    SELECT 2, 3, 'Executed', 'EXECUTED', 'system', 'tripletex',
      '[{"method": "POST", "path": "/v2/ledger/voucher", "status": 201}]', NULL, '{"bookingId": "tripletex:voucher:4711"}';

    INSERT INTO events (id, company_id, correlation_id, sequence, type, status, proposal_id, actor, channel,
      provider, api_calls, confidence, data, occurred_at, recorded_at)
    SELECT 'bench-e' || g || '-' || s.sequence, 'demo', 'bench-c' || g, s.sequence, s.type, s.status, 'bench-p' || g,
      s.actor, 'slack', s.provider, s.api_calls, s.confidence, s.data,
      to_timestamp(${START / 1000} + g * 60 + s.sequence), to_timestamp(${START / 1000} + g * 60 + s.sequence)
    FROM generate_series(1, ${proposals}) g
    JOIN bench_shapes s ON s.kind = ${kindSql(proposals)}
    ORDER BY g, s.sequence;

    INSERT INTO proposals (${columns.join(', ')})
    SELECT ${columns.map((column) => proposalOverrides(proposals)[column] ?? `t.${column}`).join(', ')}
      FROM proposals t, generate_series(1, ${proposals}) g WHERE t.id = '${template}';`;
}

async function main() {
  const service = await startService({
    port: 3902,
    env: {
      EVENT_SEAL_INTERVAL_MS: '0',
      OUTBOX_DISPATCH_ENABLED: 'false',
      EXECUTOR_ENABLED: 'false',
      DAILY_CHECK_ENABLED: 'false',
    },
  });
  try {
    const admin = { authorization: `Bearer ${service.token({ role: 'admin' })}`, 'content-type': 'application/json' };
    await fetch(`${service.url}/v1/patterns`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25', verified: true }),
    });
    const employee = { authorization: `Bearer ${service.token({ role: 'employee', sub: 'ola@demo.no' })}` };
    const submitted = await fetch(`${service.url}/v1/proposals`, {
      method: 'POST',
      headers: { ...employee, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(SUBMISSION),
    });
    if (submitted.status !== 201) throw new Error(`the template submission: ${submitted.status}`);
    const template = (await submitted.json()).id;

    const proposals = PENDING + Math.ceil(((EVENTS - PENDING) * 20) / EVENTS_PER_20);
    const columns = psqlValue(
      "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'proposals'",
      service.databaseUrl,
    ).split(',');
    const seedStarted = Date.now();
    psql(seedSql(template, proposals, columns), service.databaseUrl);
    // What autovacuum does to a live table after a bulk load: statistics and the visibility map.
    psql('VACUUM ANALYZE events', service.databaseUrl);
    psql('VACUUM ANALYZE proposals', service.databaseUrl);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const events = Number(psqlValue("SELECT count(*) FROM events WHERE company_id = 'demo'", service.databaseUrl));
    const [first, last] = psqlValue(
      "SELECT min(position) || ' ' || max(position) FROM events WHERE company_id = 'demo'",
      service.databaseUrl,
    )
      .split(' ')
      .map(Number);
    // psql held this process's event loop: let it see the keep-alive sockets the service closed meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 100));
    console.log(`seeded ${events} events of ${proposals} proposals in ${seedSeconds.toFixed(1)} s`);

    // The service's cursor: base64url of the JSON array of the last row's keys (libs/persistence/src/shared/keyset-cursor.ts).
    const encodeCursor = (keys) => Buffer.from(JSON.stringify(keys), 'utf8').toString('base64url');
    const random = (below) => Math.floor(Math.random() * below);
    const day = (n) => new Date(START + n * 86_400_000).toISOString();
    const days = Math.floor((proposals * MINUTE) / 86_400_000);
    const queries = [
      {
        name: 'whole history, from a cursor',
        path: () => `/v1/events?limit=${PAGE}&cursor=${encodeCursor([first + random(last - first)])}`,
      },
      { name: 'status=PROPOSED, first page', path: () => `/v1/events?status=PROPOSED&limit=${PAGE}` },
      {
        name: 'type=Approved, from a cursor',
        path: () => `/v1/events?type=Approved&limit=${PAGE}&cursor=${encodeCursor([first + random(last - first)])}`,
      },
      {
        name: 'one day (from, to)',
        path: () => {
          const n = random(Math.max(days, 1));
          return `/v1/events?from=${day(n)}&to=${day(n + 1)}&limit=${PAGE}`;
        },
      },
      {
        name: 'one proposal (correlationId)',
        path: () => `/v1/events?correlationId=bench-c${1 + random(proposals)}`,
      },
    ];

    const manager = { authorization: `Bearer ${service.token({ role: 'manager', sub: 'kari@demo.no' })}` };
    const results = [];
    for (const query of queries) {
      const probe = await fetch(`${service.url}${query.path()}`, { headers: manager });
      const page = await probe.json();
      if (probe.status !== 200 || page.items.length === 0) {
        throw new Error(`${query.name}: ${probe.status} with ${page.items?.length} items`);
      }
      results.push(
        summarize(
          `GET /v1/events, ${query.name}`,
          await runAtRate({
            url: `${service.url}/v1/events`,
            headers: manager,
            rate: RPS,
            duration: SECONDS,
            warmUp: 2,
            serviceUrl: service.url,
            vary: () => ({ path: query.path() }),
          }),
        ),
      );
    }
    console.table(results);
    writeResults('events.json', {
      events,
      proposals,
      seedSeconds,
      rate: RPS,
      seconds: SECONDS,
      queries: results,
    });
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
