import { DataSource, type QueryRunner } from 'typeorm';
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

  it('answers 503 within DB_CONNECT_TIMEOUT_MS when every connection of the pool is taken', async () => {
    const held: QueryRunner[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const runner = t.app.get(DataSource).createQueryRunner();
        await runner.connect();
        held.push(runner);
      }
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
});
