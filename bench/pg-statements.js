'use strict';
/**
 * A probe loaded into the service (`BENCH_NODE_ARGS="--require ./bench/pg-statements.js"`): counts
 * each SQL statement the service sends through `pg` and the time until its answer, by statement
 * text, and writes them to BENCH_PG_STATEMENTS_FILE when the process exits. For when
 * pg_stat_statements cannot be loaded into the server (docs/performance.md). The time is the
 * client's round trip (queueing in the service's own loop included), not the server's execution.
 * Not part of the service.
 */
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const pg = require('pg');

const file = process.env.BENCH_PG_STATEMENTS_FILE ?? `/tmp/pg-statements-${process.pid}.json`;
const stats = new Map();

function record(text, ms, result) {
  const key = text.replace(/\s+/g, ' ').trim();
  const entry = stats.get(key) ?? { calls: 0, totalMs: 0, rows: 0 };
  entry.calls += 1;
  entry.totalMs += ms;
  entry.rows += Array.isArray(result?.rows) ? result.rows.length : 0;
  stats.set(key, entry);
}

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, callback) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text !== 'string') return query.call(this, config, values, callback);
  const started = performance.now();
  const done = (result) => record(text, performance.now() - started, result);
  const last = typeof callback === 'function' ? 'callback' : typeof values === 'function' ? 'values' : null;
  if (last === 'callback') {
    return query.call(this, config, values, (...args) => (done(args[1]), callback(...args)));
  }
  if (last === 'values') return query.call(this, config, (...args) => (done(args[1]), values(...args)));
  const result = query.call(this, config, values);
  if (result && typeof result.then === 'function') result.then(done, () => done());
  return result;
};

/** Writes what was counted so far; also on request (SIGUSR2) and at exit. */
function dump() {
  const rows = [...stats].map(([text, s]) => ({
    text,
    calls: s.calls,
    meanMs: +(s.totalMs / s.calls).toFixed(3),
    meanRows: +(s.rows / s.calls).toFixed(1),
  }));
  rows.sort((a, b) => b.calls - a.calls);
  fs.writeFileSync(file, JSON.stringify(rows, null, 2));
}
process.on('exit', dump);
process.on('SIGUSR2', dump);
