'use strict';
/**
 * The baseline every endpoint is compared with: GET /health (no guard) against GET /v1/whoami
 * (the full gateway guard: RS256 signature, claims, cached company check, permission, role,
 * rate limiter), in one run, on real PostgreSQL. `npm run build && node bench/http-baseline.js`
 */
const { startService, run, summarize, writeResults } = require('./lib');

async function main() {
  const duration = Number(process.env.BENCH_SECONDS ?? 15);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const service = await startService();
  try {
    const token = service.token({ role: 'accountant' });
    await run({ url: `${service.url}/health`, duration: 3, connections }); // warm-up
    await run({
      url: `${service.url}/v1/whoami`,
      duration: 3,
      connections,
      headers: { authorization: `Bearer ${token}` },
    });
    const health = summarize('GET /health', await run({ url: `${service.url}/health`, duration, connections }));
    const whoami = summarize(
      'GET /v1/whoami',
      await run({
        url: `${service.url}/v1/whoami`,
        duration,
        connections,
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    const ratio = +(whoami.requestsPerSecond / health.requestsPerSecond).toFixed(2);
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      connections,
      duration,
      health,
      whoami,
      ratio,
    };
    console.table([health, whoami]);
    console.log(`whoami / health throughput ratio: ${ratio}`);
    writeResults('http-baseline.json', result);
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
