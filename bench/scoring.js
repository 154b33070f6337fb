'use strict';
/**
 * Scoring a proposal with BENCH_SCORING_PATTERNS (100 000) patterns in the company, in this process
 * on real PostgreSQL, as the submission does it: its one read (`SubmissionReads.read`: the candidate
 * lookup on the trigram index, with the duplicate look-ups, here over empty tables) then the
 * ConfidenceEngine. BENCH_SCORES (3 000) scores one
 * after another, after 300 not counted, a third each of merchants with a pattern of their own
 * (exact key), misspelt ones (a look-alike) and unknown ones; p50/p99 of the whole and of each part,
 * and of the lookup for each kind of merchant.
 *
 *   npm run build && node bench/scoring.js      → bench/results/scoring.json
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { psql, psqlValue, writeResults } = require('./lib');

const DIST = path.resolve(__dirname, '../dist/libs');
const { ConfidenceEngine, normalizeMerchant, parseMoney } = require(`${DIST}/domain/src`);
const { TypeOrmSubmissionReads } = require(`${DIST}/persistence/src/proposal/typeorm-submission-reads.js`);
const { dataSourceOptions, migrateAsOwner } = require(`${DIST}/persistence/src/database/database.js`);
const { DataSource } = require('typeorm');

const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PATTERNS = Number(process.env.BENCH_SCORING_PATTERNS ?? 100_000);
const SCORES = Number(process.env.BENCH_SCORES ?? 3000);
const WARM_UP = 300;

/**
 * A made-up merchant word of three syllables from the md5 of `seed`: names with the spread of
 * letters and trigrams of real ones (Norwegian consonant clusters and vowels), unlike hex digests.
 */
const WORD_FUNCTION = `
  CREATE FUNCTION pg_temp.bench_word(seed text) RETURNS text LANGUAGE sql AS $$
    SELECT initcap(string_agg(
      (ARRAY['b','d','f','g','h','k','l','m','n','p','r','s','t','v','br','st','kj','sk','tr','fl'])[1 + get_byte(h, 2 * s) % 20] ||
      (ARRAY['a','e','i','o','u','y','ei','au','ou','ie'])[1 + get_byte(h, 2 * s + 1) % 10], '' ORDER BY s))
    FROM (SELECT decode(md5(seed), 'hex') AS h) x, generate_series(0, 2) s
  $$;`;
const NAME_SQL = "pg_temp.bench_word(g || 'a') || ' ' || pg_temp.bench_word(g || 'b')";

function percentile(sorted, q) {
  return +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(3);
}

function summary(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, p50ms: percentile(sorted, 0.5), p99ms: percentile(sorted, 0.99), maxms: percentile(sorted, 1) };
}

/** A merchant name of each kind, in turn: one a pattern has, one misspelt, one no pattern is like. */
function merchantFor(i, names) {
  const name = names[i % names.length];
  if (i % 3 === 0) return name;
  if (i % 3 === 1) return `${name.slice(0, -2)}${name.at(-1)}${name.at(-2)}`; // two letters swapped
  return `Unknown Vendor ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i / 26) % 26))}`;
}

async function main() {
  const db = `acct_bench_scoring_${Date.now()}`;
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  psql(`CREATE DATABASE ${db}`);
  const dataSource = new DataSource(dataSourceOptions({ url }, 2, false));
  try {
    await migrateAsOwner(url);
    psql(
      `${WORD_FUNCTION}
      INSERT INTO companies (id, name) VALUES ('demo', 'Demo AS');
      INSERT INTO patterns (id, company_id, merchant_key, merchant_name, account_code, vat_rate, approvals,
        amount_count, amount_mean, amount_m2, amount_min, amount_max, verified, confirmed_by, version, created_at, updated_at)
      SELECT 'bench-' || g, 'demo', lower(${NAME_SQL}), ${NAME_SQL}, '6800', '25', 3,
        3, 50000, 0, 40000, 60000, true, ARRAY['kari@demo.no', 'per@demo.no'], 1, now(), now()
      FROM generate_series(1, ${PATTERNS}) AS g`,
      url,
    );
    psql('VACUUM ANALYZE patterns', url);
    const names = psqlValue(
      `SELECT string_agg(merchant_name, '|') FROM (SELECT merchant_name FROM patterns ORDER BY md5(id) LIMIT 1000) s`,
      url,
    ).split('|');

    await dataSource.initialize();
    const reads = new TypeOrmSubmissionReads(dataSource.manager);
    const today = new Date().toISOString().slice(0, 10);
    const readFor = (merchant) =>
      reads.read('demo', {
        merchantKey: normalizeMerchant(merchant),
        receiptSha256: null,
        receiptFingerprint: null,
        amountMin: 49750,
        amountMax: 50250,
        dateFrom: today,
        dateTo: today,
        submittedSince: new Date(Date.now() - 365 * 86_400_000),
        supplierInvoice: null,
      });
    const engine = new ConfidenceEngine();
    const policy = { autoApproveMaxAmount: null };
    const total = [];
    const lookup = [];
    const score = [];
    const routes = {};
    const lookupByKind = { exact: [], 'look-alike': [], unknown: [] };
    for (let i = 0; i < WARM_UP + SCORES; i++) {
      const merchant = merchantFor(i, names);
      const input = {
        merchant,
        accountCode: '6800',
        vatRate: '25',
        amount: parseMoney('500.00'),
        currency: 'NOK',
        submittedBy: 'ola@demo.no',
      };
      const started = performance.now();
      const { candidates } = await readFor(merchant);
      const found = performance.now();
      const assessment = engine.score(input, candidates, policy);
      const scored = performance.now();
      if (i >= WARM_UP) {
        total.push(scored - started);
        lookup.push(found - started);
        score.push(scored - found);
        const kind = ['exact', 'look-alike', 'unknown'][i % 3];
        lookupByKind[kind].push(found - started);
        routes[`${kind} → ${assessment.route}`] = (routes[`${kind} → ${assessment.route}`] ?? 0) + 1;
      }
    }
    const results = [
      summary('lookup + score', total),
      summary('the submission read (PostgreSQL)', lookup),
      summary('ConfidenceEngine.score', score),
    ];
    const lookupsByKind = Object.entries(lookupByKind).map(([kind, samples]) =>
      summary(`the submission read, ${kind} merchant`, samples),
    );
    console.table(results);
    console.table(lookupsByKind);
    console.table(routes);
    writeResults('scoring.json', { patterns: PATTERNS, scores: SCORES, results, lookupsByKind, routes });
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
