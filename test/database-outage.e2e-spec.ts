import { DataSource, type QueryRunner } from 'typeorm';
import { runAsRequest } from '@app/persistence';
import { startTestApp, type TestApp } from './support/test-app';
import { api, expectProblem, proposalBody } from './support/proposals';
import { TcpProxy } from './support/tcp-proxy';

/**
 * The service with PostgreSQL behind a proxy the tests take down, bring back and cut: what a client
 * sees while the database is stopped, restarting or out of connections.
 */
describe('the API when PostgreSQL is unavailable', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let as: ReturnType<typeof api>;

  beforeAll(async () => {
    proxy = await TcpProxy.start(process.env.DATABASE_URL as string);
    t = await startTestApp({
      env: {
        DATABASE_URL: proxy.url(process.env.DATABASE_URL as string),
        // Every request asks the database whether the company exists.
        COMPANY_CACHE_TTL_MS: '0',
        DB_POOL_SIZE: '2',
        DB_WORKER_POOL_SIZE: '2',
        DB_CONNECT_TIMEOUT_MS: '500',
      },
    });
    as = api(t);
  });
  afterAll(async () => {
    await proxy.up();
    await t?.close();
    await proxy?.close();
  });
  afterEach(async () => proxy.up());

  it('answers 503 service_unavailable with Retry-After while it is down, and 200 again once it is back', async () => {
    expect((await as.get('/v1/whoami', 'employee')).status).toBe(200);
    await proxy.down();

    const res = await as.get('/v1/whoami', 'employee');
    expectProblem(res, 503, 'service_unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.detail).toMatch(/database is unavailable/);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);

    expect((await t.http.get('/health/live')).status).toBe(200);
    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', checks: { database: 'down' } });

    await proxy.up();
    expect((await as.get('/v1/whoami', 'employee')).status).toBe(200);
    expect((await t.http.get('/health/ready')).status).toBe(200);
  });

  it('answers a submission made while it is down with 503: nothing was stored', async () => {
    await proxy.down();
    const res = await as.submit(proposalBody({ receipt: null }), 'employee', 'while-down');
    expectProblem(res, 503, 'service_unavailable');
    expect(res.body.detail).toMatch(/changed nothing/);
    await proxy.up();

    const retried = await as.submit(proposalBody({ receipt: null }), 'employee', 'while-down');
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('answers a write whose connection is lost while it commits with 503 saying the outcome is unknown; the replay tells', async () => {
    const company = await t.newCompany('cut');
    const inCompany = api(t, company);
    proxy.cutAfter('WITH stored_key');
    const res = await inCompany.submit(proposalBody({ receipt: null }), 'employee', 'cut-while-committing');
    expectProblem(res, 503, 'service_unavailable');
    expect(res.body.detail).toMatch(/may or may not have been stored.*same Idempotency-Key/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);

    const replay = await inCompany.submit(proposalBody({ receipt: null }), 'employee', 'cut-while-committing');
    expect(replay.status).toBe(201);
    const stored = (await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM proposals WHERE company_id = $1', [company])) as { n: number }[];
    expect(stored).toEqual([{ n: 1 }]);
  });

  /** Takes `n` connections, as requests (the API's pool) or as background work (its own). */
  async function hold(n: number, as: 'request' | 'background'): Promise<QueryRunner[]> {
    const held: QueryRunner[] = [];
    for (let i = 0; i < n; i++) {
      const runner = t.app.get(DataSource).createQueryRunner();
      await (as === 'request' ? runAsRequest(() => runner.connect()) : runner.connect());
      held.push(runner);
    }
    return held;
  }

  it('answers 503 within DB_CONNECT_TIMEOUT_MS when every connection of the API pool is taken', async () => {
    let held: QueryRunner[] = [];
    try {
      held = await hold(2, 'request');
      const started = Date.now();
      const res = await as.get('/v1/whoami', 'employee');
      expectProblem(res, 503, 'service_unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect((await t.http.get('/health/live')).status).toBe(200);
    } finally {
      for (const runner of held) await runner.release();
    }
    expect((await as.get('/v1/whoami', 'employee')).status).toBe(200);
  });

  it('serves requests while background work holds every connection of its own pool', async () => {
    const held = await hold(2, 'background');
    try {
      expect((await as.get('/v1/whoami', 'employee')).status).toBe(200);
      expect((await as.submit(proposalBody({ receipt: null }), 'employee', 'beside-busy-workers')).status).toBe(201);
      // More background work waits for its own pool (and gives up after DB_CONNECT_TIMEOUT_MS).
      await expect(t.app.get(DataSource).query('SELECT 1')).rejects.toThrow(/timeout/);
    } finally {
      for (const runner of held) await runner.release();
    }
    await expect(t.app.get(DataSource).query('SELECT 1')).resolves.toEqual([{ '?column?': 1 }]);
  });
});
