'use strict';
/**
 * Every benchmark of the API's hot paths, one after another, each in a process of its own, then the
 * report: `npm run bench` (which builds first). About 7 minutes on a quiet 2-core machine. Each
 * script's own variables (BENCH_*) pass through; a failing script stops the run.
 */
const { execFileSync } = require('node:child_process');
const path = require('node:path');

for (const script of ['anchors.js', 'http.js', 'events.js', 'scoring.js', 'report.js']) {
  console.log(`\n== bench/${script}`);
  execFileSync(process.execPath, [path.join(__dirname, script)], { stdio: 'inherit' });
}
