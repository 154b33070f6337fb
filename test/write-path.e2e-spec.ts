import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startTestApp, type TestApp } from './support/test-app';
import { api, proposalBody, repeatBody } from './support/proposals';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';

/** The first words of each statement the pg driver sends while `work` runs. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  const spy = (
    jest.spyOn(Client.prototype, 'query') as unknown as jest.SpyInstance<unknown, unknown[]>
  ).mockImplementation(function (this: Client, ...args: unknown[]) {
    const statement = args[0] as string | { text?: string };
    const text = typeof statement === 'string' ? statement : (statement.text ?? '');
    sent.push(text.trim().replace(/\s+/g, ' ').split(' ').slice(0, 3).join(' '));
    return query.apply(this, args);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}

describe('the write path of POST /v1/proposals', () => {
  let t: TestApp;
  let company: string;
  let as: ReturnType<typeof api>;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    company = await t.newCompany('write');
    as = api(t, company);
    await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });
    // The company's settings and context are cached from here on, as for any company in use.
    expect((await as.submit(repeatBody(9, { receipt: null }), 'employee', 'warm-up')).status).toBe(201);
  });

  it('stores a keyed, auto-approved submission in one statement after reading the patterns and possible duplicates in one', async () => {
    let status = 0;
    const sent = await statementsOf(async () => {
      const res = await as.submit(proposalBody({ receipt: null }), 'employee', 'one-transaction');
      status = res.status;
      expect(res.body.status).toBe('APPROVED');
    });

    expect(status).toBe(201);
    // The rate limit counts in memory: no statement of its own.
    expect(sent).toEqual([
      // The patterns and the possible duplicates: one statement.
      'SELECT (SELECT COALESCE(json_agg(r',
      // The key with its response, the events, the outbox row and the proposal: one statement.
      'WITH stored_key AS',
    ]);
  });

  it('stores a keyless submission the same way, without the key', async () => {
    const sent = await statementsOf(() => as.submit(proposalBody({ receipt: null })));

    expect(sent).toEqual(['SELECT (SELECT COALESCE(json_agg(r', 'WITH stored_events AS']);
  });

  it('answers a replayed key from the stored response without storing anything', async () => {
    const first = await as.submit(proposalBody({ receipt: null }), 'employee', 'replayed');
    const proposalsOfCompany = async () =>
      (await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM proposals WHERE company_id = $1', [company])) as { n: number }[];
    const before = await proposalsOfCompany();

    let replay: { text: string; headers: Record<string, string> } | undefined;
    const sent = await statementsOf(async () => {
      replay = await as.submit(proposalBody({ receipt: null }), 'employee', 'replayed');
    });

    // The one statement finds the key taken and stores nothing; the key's row answers the retry.
    expect(sent.slice(1)).toEqual(['WITH stored_key AS', 'SELECT request_hash, response_status,']);
    expect(replay?.headers['idempotent-replayed']).toBe('true');
    expect(replay?.text).toBe(first.text);
    expect(await proposalsOfCompany()).toEqual(before);
  });
});

/** Concurrent requests with one key, on several connections. */
describe('concurrent requests with one Idempotency-Key (PostgreSQL)', () => {
  let database: IsolatedTestDatabase;
  let t: TestApp;
  let as: ReturnType<typeof api>;
  let blocker: Client;

  beforeAll(async () => {
    // The company's row is locked below: a database of its own, so no other suite waits on it.
    database = await isolatedTestDatabase('idempotency');
    t = await startTestApp({ env: { DATABASE_URL: database.url, DB_POOL_SIZE: '8' } });
    as = api(t);
    await as.post('/v1/patterns', 'accountant', { merchantName: 'Spotify AB', accountCode: '6540', vatRate: '25' });
    blocker = new Client({ connectionString: database.url });
    await blocker.connect();
  });

  afterAll(async () => {
    await blocker?.end();
    await t?.close();
    await database?.dispose();
  });

  /** Polls until `count` lock requests matching `where` (over pg_locks l) wait. */
  async function waitForWaiting(where: string, count: number): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const [row] = (await blocker.query(`SELECT count(*)::int AS n FROM pg_locks l WHERE NOT l.granted AND ${where}`))
        .rows as { n: number }[];
      if (row.n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`fewer than ${count} lock requests waiting on ${where}`);
  }

  /**
   * Holds the company's row: a request's statement then writes its rows, the key's included, and
   * waits at the end of the statement, where the foreign keys to the company are checked. Returns
   * the blocker's transaction id, the one such a request waits on.
   */
  async function holdCompany(): Promise<string> {
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM companies WHERE id = $1 FOR UPDATE', [t.company]);
    const [row] = (await blocker.query('SELECT pg_current_xact_id()::xid::text AS xid')).rows as { xid: string }[];
    return row.xid;
  }

  it('runs the first; a duplicate waits on the key and replays its response, another body gets 409', async () => {
    // Hold the first request inside its statement, after its key.
    const held = await holdCompany();
    const first = as.submit(proposalBody(), 'employee', 'dup').then((res) => res);
    await waitForWaiting(`l.locktype = 'transactionid' AND l.transactionid::text = '${held}'`, 1);

    const same = as.submit(proposalBody(), 'employee', 'dup').then((res) => res);
    const other = as.submit(proposalBody({ amount: '120.00' }), 'employee', 'dup').then((res) => res);
    // Both wait on the first's uncommitted key (its transaction id), not on the company.
    await waitForWaiting(`l.locktype = 'transactionid' AND l.transactionid::text <> '${held}'`, 2);
    await blocker.query('COMMIT');

    const [a, b, c] = await Promise.all([first, same, other]);
    expect(a.status).toBe(201);
    expect(a.headers['idempotent-replayed']).toBeUndefined();
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.text).toBe(a.text);
    expect(c.status).toBe(409);
    expect(c.body.code).toBe('idempotency_conflict');
    const stored = await t.app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM proposals WHERE company_id = $1 AND merchant = $2', [
        t.company,
        'Spotify AB',
      ]);
    expect(stored).toEqual([{ n: 1 }]);
  });

  it('lets a waiting duplicate run itself when the first request fails', async () => {
    const held = await holdCompany();
    const first = as.submit(proposalBody(), 'employee', 'dup-fails').then((res) => res);
    await waitForWaiting(`l.locktype = 'transactionid' AND l.transactionid::text = '${held}'`, 1);
    const second = as.submit(proposalBody(), 'employee', 'dup-fails').then((res) => res);
    await waitForWaiting(`l.locktype = 'transactionid' AND l.transactionid::text <> '${held}'`, 1);
    // Cancel the first request's statement: it fails and releases the key.
    await blocker.query(
      `SELECT pg_cancel_backend(l.pid) FROM pg_locks l
        WHERE NOT l.granted AND l.locktype = 'transactionid' AND l.transactionid::text = $1`,
      [held],
    );
    await blocker.query('COMMIT');

    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(500);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    const replay = await as.submit(proposalBody(), 'employee', 'dup-fails');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(b.body.id);
  });
});
