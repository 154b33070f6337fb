import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { DataSource } from 'typeorm';
import { OutboxDispatcher } from '@app/notifications';
import { TestWebhookReceiver, respond } from '@app/testing';
import { startTestApp, type TestApp } from './support/test-app';
import { isolatedTestDatabase, type IsolatedTestDatabase } from './support/test-database';
import { api, proposalBody } from './support/proposals';

/** The killed instance's lease: short, so the test is; the service's default is 15 s (OUTBOX_LEASE_MS). */
const LEASE_MS = 2_000;
const MESSAGES = 4;

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, boundMs: number): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One instance's outbox dispatcher is killed (SIGKILL) while it holds claimed notifications whose
 * receiver has not answered yet; another instance delivers them once the dead one's lease ends —
 * within one short lease of the kill, not minutes — and not before: while the first was alive and
 * waiting on the slow receiver, it kept renewing its claims.
 */
describe('notifications claimed by a killed instance', () => {
  let database: IsolatedTestDatabase;
  let survivor: TestApp;
  let receiver: TestWebhookReceiver;
  let child: ChildProcess | undefined;
  /** While set, the receiver takes requests and does not answer them. */
  let holding = true;
  const released: (() => void)[] = [];

  beforeAll(async () => {
    // The killed instance claims every company's due rows: this suite gets a database of its own.
    database = await isolatedTestDatabase('outbox_lease');
    receiver = await TestWebhookReceiver.start();
    receiver.answerWith(() =>
      holding
        ? { type: 'respond', status: 200, after: new Promise<void>((resolve) => released.push(resolve)) }
        : undefined,
    );
    receiver.otherwise(respond(200, 'ok'));
    survivor = await startTestApp({ env: { DATABASE_URL: database.url } });
    const res = await api(survivor).put('/v1/config/company', 'admin', {
      reviewChannel: { kind: 'webhook', url: receiver.url('/review') },
    });
    expect(res.status).toBe(200);
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    for (const release of released) release();
    await survivor?.close();
    await receiver?.close();
    await database?.dispose();
  });

  function spawnInstance(): { child: ChildProcess; ready: Promise<void>; exited: Promise<void> } {
    const spawned = spawn(
      process.execPath,
      ['-r', path.join(__dirname, 'support/swc-register.js'), path.join(__dirname, 'support/executor-child.ts')],
      {
        env: {
          ...process.env,
          NODE_ENV: 'development',
          DATABASE_URL: database.url,
          // The survivor's DATA_DIR: the same webhook signing key, so both sign alike.
          DATA_DIR: survivor.dataDir,
          GATEWAY_JWKS: survivor.jwksFile,
          LOG_LEVEL: 'silent',
          SEED_DEMO_COMPANY: 'false',
          MIGRATE_ON_BOOT: 'false',
          DB_POOL_SIZE: '2',
          EXECUTOR_ENABLED: 'false',
          DAILY_CHECK_ENABLED: 'false',
          EVENT_SEAL_INTERVAL_MS: '0',
          IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
          OUTBOX_DISPATCH_ENABLED: 'true',
          DEVELOPMENT_CHANNEL: 'false',
          OUTBOX_POLL_MS: '50',
          OUTBOX_LEASE_MS: String(LEASE_MS),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    spawned.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ready = new Promise<void>((resolve, reject) => {
      spawned.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      spawned.once('exit', (code) => reject(new Error(`instance exited (${code}) before it was ready: ${stderr}`)));
    });
    const exited = new Promise<void>((resolve) => spawned.once('exit', () => resolve()));
    return { child: spawned, ready, exited };
  }

  const rows = (): Promise<{ id: string; attempts: number; lease_ms: string; delivered: boolean }[]> =>
    survivor.app.get(DataSource).query(
      `SELECT id, attempts, (EXTRACT(EPOCH FROM next_attempt_at - now()) * 1000)::int AS lease_ms,
                delivered_at IS NOT NULL AS delivered
           FROM notification_outbox ORDER BY id`,
    );

  /** One pass of the survivor's own dispatcher, on the real time (its clock is the test's). */
  const survivorPass = async () => {
    survivor.clock.set(new Date());
    return survivor.app.get(OutboxDispatcher).runOnce();
  };

  it('are delivered by another instance within one short lease of the kill, and not while the first renews them', async () => {
    for (let i = 0; i < MESSAGES; i++) {
      const submitted = await api(survivor).submit(proposalBody({ merchant: `Unknown Supplier ${i} AS` }));
      expect(submitted.body.route).toBe('review_required');
    }
    expect(await rows()).toHaveLength(MESSAGES);

    const instance = spawnInstance();
    child = instance.child;
    await instance.ready;
    await waitFor('the first instance sends every notification', () => receiver.requests.length === MESSAGES, 30_000);

    // The receiver holds the sends for three of the first instance's leases: it keeps renewing its
    // claims, so the survivor claims none of them meanwhile.
    const heldUntil = Date.now() + 3 * LEASE_MS;
    while (Date.now() < heldUntil) {
      expect(await survivorPass()).toMatchObject({ claimed: 0 });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(receiver.requests).toHaveLength(MESSAGES);

    child.kill('SIGKILL');
    await instance.exited;
    child = undefined;
    holding = false;
    // What the dead instance held ends within one of its leases: the renewals kept it that short.
    for (const row of await rows()) {
      expect(row).toMatchObject({ attempts: 1, delivered: false });
      expect(row.lease_ms).toBeLessThanOrEqual(LEASE_MS);
    }

    await waitFor(
      'the survivor delivers them',
      async () => {
        await survivorPass();
        return (await rows()).every((row) => row.delivered);
      },
      LEASE_MS + 30_000,
    );
    const ids = (await rows()).map((row) => row.id);
    for (const id of ids) {
      // Sent twice in all (the dead instance's send, then the survivor's), with the same delivery id.
      expect(receiver.requests.filter((r) => r.headers['x-delivery-id'] === id)).toHaveLength(2);
    }
    expect((await rows()).every((row) => row.attempts === 2)).toBe(true);
  });
});
