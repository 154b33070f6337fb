import { SlackWebhookSender } from '../delivery/slack-webhook-sender';
import { WebhookSecret, verifyWebhookSignature } from '../delivery/webhook-secret';
import { WebhookSender } from '../delivery/webhook-sender';
import { InMemoryCompanyChannelDirectory } from '@app/testing';
import type { NewOutboxMessage } from '../message/outbox-message';
import { InMemoryOutboxRepository } from '@app/testing';
import { ManualTimeSource as ManualClock, ManualTimer } from '@app/testing';
import {
  aDailyCheckPayload,
  aNeedsReviewPayload,
  aNewOutboxMessage,
  aRejectedPayload,
  anAutoApprovedPayload,
} from '@app/testing';
import { type ReceivedRequest, TestWebhookReceiver, respond } from '@app/testing';
import { backoffCeiling } from './backoff';
import { OutboxDispatcher, type OutboxDispatcherOptions } from './outbox-dispatcher';
import type { LogFields, NotificationLogger } from './runtime';

const SECRET = 'acme-webhook-secret-0f9e8d';
const REVIEW_TOKEN = 'REVIEWxTOKEN';
const INVOICES_TOKEN = 'INVOICESxTOKEN';
const GATEWAY_KEY = 'GATEWAYxKEY';
const BACKOFF = { baseMs: 1_000, capMs: 60_000, minMs: 100 };
const LEASE_MS = 120_000;
/** Generous enough for a loaded CI machine; only scripted hangs reach it. */
const SEND_TIMEOUT_MS = 500;

interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields?: LogFields;
}

class RecordingLogger implements NotificationLogger {
  readonly lines: LogLine[] = [];
  info(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields?: LogFields): void {
    this.lines.push({ level: 'error', message, fields });
  }
}

/** Deterministic PRNG (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const deliveryId = (r: ReceivedRequest): string => String(r.headers['x-delivery-id']);

describe('OutboxDispatcher', () => {
  let receiver: TestWebhookReceiver;
  let repository: InMemoryOutboxRepository;
  let channels: InMemoryCompanyChannelDirectory;
  let clock: ManualClock;
  let logger: RecordingLogger;
  const secret = WebhookSecret.from(SECRET);

  const dispatcher = (options: OutboxDispatcherOptions = {}, sendTimeoutMs = SEND_TIMEOUT_MS): OutboxDispatcher =>
    new OutboxDispatcher(
      {
        repository,
        channels,
        webhook: new WebhookSender({ timeoutMs: sendTimeoutMs, allowInternalTargets: true }),
        slack: new SlackWebhookSender({ timeoutMs: sendTimeoutMs, allowInternalTargets: true }),
        clock,
      },
      { logger, random: () => 0.5, backoff: BACKOFF, leaseMs: LEASE_MS, ...options },
    );

  const enqueue = async (...messages: NewOutboxMessage[]): Promise<void> => {
    await repository.enqueue(messages.map((m) => ({ ...m, createdAt: clock.now() })));
  };

  /** Runs passes, moving the clock past every backoff and lease, until nothing is pending. */
  const deliverEverything = async (subject: OutboxDispatcher, maxRounds = 100): Promise<number> => {
    for (let round = 1; round <= maxRounds; round += 1) {
      await subject.drain();
      if (repository.all().every((m) => m.deliveredAt !== null)) return round;
      clock.advance(LEASE_MS);
    }
    throw new Error('not everything was delivered');
  };

  beforeEach(async () => {
    receiver = await TestWebhookReceiver.start();
    repository = new InMemoryOutboxRepository();
    clock = new ManualClock('2026-11-20T07:00:00.000Z');
    logger = new RecordingLogger();
    channels = new InMemoryCompanyChannelDirectory().set('acme', {
      reviewChannel: { kind: 'slack', url: receiver.url(`/services/T1/B1/${REVIEW_TOKEN}`) },
      invoicesChannel: { kind: 'slack', url: receiver.url(`/services/T1/B2/${INVOICES_TOKEN}`) },
      gatewayCallback: { kind: 'webhook', url: receiver.url(`/gateway/callback?key=${GATEWAY_KEY}`) },
      webhookSecret: secret,
    });
  });

  afterEach(async () => {
    await receiver.close();
  });

  it('sends each target to its channel: review and invoices to Slack, the user thread to the gateway, signed', async () => {
    await enqueue(
      aNewOutboxMessage({ id: 'r1', target: 'review', kind: 'proposal_needs_review', payload: aNeedsReviewPayload() }),
      aNewOutboxMessage({ id: 'i1', target: 'invoices', kind: 'daily_check', payload: aDailyCheckPayload() }),
      aNewOutboxMessage({ id: 'u1', target: 'user_thread', kind: 'proposal_rejected', payload: aRejectedPayload() }),
    );

    const summary = await dispatcher().runOnce();

    expect(summary).toEqual({ claimed: 3, delivered: 3, failed: 0, dead: 0, unrecorded: 0 });
    const byPath = new Map(receiver.requests.map((r) => [r.path, r]));
    const review = byPath.get(`/services/T1/B1/${REVIEW_TOKEN}`);
    const invoices = byPath.get(`/services/T1/B2/${INVOICES_TOKEN}`);
    const gateway = byPath.get(`/gateway/callback?key=${GATEWAY_KEY}`);
    expect(receiver.json<{ text: string }>(review!).text).toContain('Review needed: Kontorrekvisita AS');
    expect(receiver.json<{ text: string }>(invoices!).text).toContain('Daily check 2026-11-20');
    expect(gateway!.headers['x-delivery-id']).toBe('u1');
    expect(verifyWebhookSignature(gateway!.rawBody, gateway!.headers['x-signature'] as string, secret)).toBe(true);
    expect(receiver.json(gateway!)).toMatchObject({
      id: 'u1',
      type: 'proposal_rejected',
      target: 'user_thread',
      thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
      data: { reason: 'wrong amount', actor: 'ola@example.no' },
    });
    for (const id of ['r1', 'i1', 'u1']) {
      expect(repository.find(id)).toMatchObject({ deliveredAt: clock.now(), attempts: 1, lastError: null });
    }
  });

  it('keeps trying a receiver that fails (500, hang, reset) and recovers, and records one delivery', async () => {
    receiver.queue(respond(500), { type: 'hang' }, { type: 'reset' }, respond(204));
    await enqueue(
      aNewOutboxMessage({
        id: 'u1',
        target: 'user_thread',
        kind: 'proposal_auto_approved',
        payload: anAutoApprovedPayload(),
      }),
    );
    const markDelivered = jest.spyOn(repository, 'markDelivered');
    const subject = dispatcher();

    const outcomes: string[] = [];
    for (let i = 0; i < 6 && !repository.find('u1')?.deliveredAt; i += 1) {
      const pass = await subject.runOnce();
      outcomes.push(
        pass.delivered ? 'delivered' : pass.failed ? `failed: ${repository.find('u1')?.lastError}` : 'idle',
      );
      clock.advance(BACKOFF.capMs);
    }

    expect(outcomes).toEqual([
      'failed: http 500',
      `failed: timed out after ${SEND_TIMEOUT_MS} ms`,
      'failed: network error: ECONNRESET',
      'delivered',
    ]);
    expect(receiver.requests.map((r) => r.answer)).toEqual([500, 'hang', 'reset', 204]);
    expect(receiver.requests.map(deliveryId)).toEqual(['u1', 'u1', 'u1', 'u1']);
    expect(receiver.requests.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3', '4']);
    for (const request of receiver.requests) {
      expect(verifyWebhookSignature(request.rawBody, request.headers['x-signature'] as string, secret)).toBe(true);
    }
    expect(receiver.accepted()).toHaveLength(1);
    expect(markDelivered).toHaveBeenCalledTimes(1);
    expect(repository.find('u1')).toMatchObject({ attempts: 4, deadAt: null });
  });

  it('backs off exponentially with full jitter, capped', async () => {
    receiver.otherwise(respond(503));
    await enqueue(aNewOutboxMessage({ id: 'm' }));
    const delays: number[] = [];
    const subject = dispatcher({ random: () => 0.999999 });

    for (let attempt = 1; attempt <= 9; attempt += 1) {
      await subject.runOnce();
      const row = repository.find('m')!;
      delays.push(row.nextAttemptAt.getTime() - clock.now().getTime());
      clock.advance(row.nextAttemptAt.getTime() - clock.now().getTime());
    }

    expect(delays).toEqual([999, 1_999, 3_999, 7_999, 15_999, 31_999, 59_999, 59_999, 59_999]);
  });

  it('draws each retry delay within [floor, ceiling] of its attempt', async () => {
    receiver.otherwise(respond(500));
    await enqueue(aNewOutboxMessage({ id: 'm' }));
    const subject = dispatcher({ random: seeded(7) });

    for (let attempt = 1; attempt <= 12; attempt += 1) {
      await subject.runOnce();
      const row = repository.find('m')!;
      const delay = row.nextAttemptAt.getTime() - clock.now().getTime();
      expect(delay).toBeGreaterThanOrEqual(BACKOFF.minMs);
      expect(delay).toBeLessThanOrEqual(backoffCeiling(attempt, BACKOFF));
      clock.advance(delay);
    }
    expect(repository.find('m')?.attempts).toBe(12);
  });

  it('waits at least what a 429 Retry-After asks, within the cap', async () => {
    receiver.queue(respond(429, '', { 'retry-after': '45' }));
    await enqueue(aNewOutboxMessage({ id: 'm' }));

    await dispatcher({ random: () => 0 }).runOnce();

    expect(repository.find('m')?.nextAttemptAt.getTime()).toBe(clock.now().getTime() + 45_000);
  });

  it('marks a message failed permanently at once when its company has no channel for it: no retries', async () => {
    channels.set('beta', { webhookSecret: secret });
    await enqueue(aNewOutboxMessage({ id: 'b1', companyId: 'beta', target: 'review' }));
    const subject = dispatcher();

    expect(await subject.runOnce()).toMatchObject({ dead: 1, failed: 0 });
    expect(repository.find('b1')).toMatchObject({
      deliveredAt: null,
      deadAt: clock.now(),
      attempts: 1,
      lastError: 'undeliverable: no reviewChannel configured',
    });

    // A channel configured later is for later messages: this one is not picked up again.
    channels.set('beta', {
      webhookSecret: secret,
      reviewChannel: { kind: 'webhook', url: receiver.url('/beta-review') },
    });
    clock.advance(BACKOFF.capMs * 10);
    expect(await subject.runOnce()).toMatchObject({ delivered: 0, dead: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(0);
    expect(repository.find('b1')?.attempts).toBe(1);
  });

  it('delivers a message with no channel to the development channel when it is on: one log line, recorded delivered', async () => {
    channels.set('beta', { webhookSecret: secret });
    await enqueue(aNewOutboxMessage({ id: 'd1', companyId: 'beta', target: 'review' }));
    const lines: string[] = [];
    const logger = { info: (line: string) => lines.push(line), warn: () => undefined, error: () => undefined };

    expect(await dispatcher({ developmentChannel: true, logger }).runOnce()).toMatchObject({ delivered: 1, dead: 0 });
    expect(repository.find('d1')).toMatchObject({ deliveredAt: clock.now(), deadAt: null });
    expect(lines).toEqual([
      expect.stringMatching(/^development channel \(reviewChannel\): .+/),
      'notification delivered',
    ]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('marks a message of an unknown company failed permanently at once', async () => {
    await enqueue(aNewOutboxMessage({ id: 'u1', companyId: 'no-such-company', target: 'review' }));

    expect(await dispatcher().runOnce()).toMatchObject({ dead: 1 });
    expect(repository.find('u1')).toMatchObject({ deliveredAt: null, lastError: 'undeliverable: unknown company' });
  });

  it('retries a permanent refusal by the receiver at the capped delay, and delivers once it is fixed', async () => {
    receiver.queue(respond(410, ''));
    await enqueue(aNewOutboxMessage({ id: 'p1' }));
    const subject = dispatcher();

    expect(await subject.runOnce()).toMatchObject({ failed: 1 });
    const row = repository.find('p1')!;
    expect(row.lastError).toMatch(/\(permanent\)$/);
    expect(row.nextAttemptAt.getTime() - clock.now().getTime()).toBe(BACKOFF.capMs / 2);

    clock.advance(BACKOFF.capMs);
    expect(await subject.runOnce()).toMatchObject({ delivered: 1 });
  });

  it('never sends an unsigned webhook: a webhook target without a secret waits', async () => {
    channels.set('gamma', { gatewayCallback: { kind: 'webhook', url: receiver.url('/gamma') } });
    await enqueue(
      aNewOutboxMessage({
        id: 'g1',
        companyId: 'gamma',
        target: 'user_thread',
        kind: 'proposal_rejected',
        payload: aRejectedPayload(),
      }),
    );

    await dispatcher().runOnce();

    expect(receiver.requests).toHaveLength(0);
    expect(repository.find('g1')).toMatchObject({
      deliveredAt: null,
      deadAt: null,
      lastError: 'no webhook secret configured (permanent)',
    });
  });

  it('keeps a row of an unknown kind instead of dropping it', async () => {
    await enqueue({ ...aNewOutboxMessage({ id: 'x1' }), kind: 'from_a_newer_version' } as unknown as NewOutboxMessage);

    await dispatcher().runOnce();

    expect(repository.find('x1')).toMatchObject({
      deliveredAt: null,
      deadAt: null,
      lastError:
        'could not render or send: UnknownNotificationKind: unknown notification kind: from_a_newer_version (permanent)',
    });
  });

  it('resumes after a restart: a new dispatcher over the same repository delivers what the old one left', async () => {
    receiver.queue(respond(500), respond(500));
    await enqueue(
      aNewOutboxMessage({ id: 'a', target: 'user_thread' }),
      aNewOutboxMessage({ id: 'b', target: 'user_thread' }),
    );
    const first = dispatcher();
    expect(await first.runOnce()).toMatchObject({ failed: 2 });
    await first.stop();

    clock.advance(BACKOFF.capMs);
    const second = dispatcher();
    expect(await second.runOnce()).toMatchObject({ delivered: 2 });
    expect(receiver.accepted().map(deliveryId).sort()).toEqual(['a', 'b']);
  });

  it('takes over the rows of a dispatcher that died mid-pass once their lease ends', async () => {
    await enqueue(aNewOutboxMessage({ id: 'a' }));
    // A dispatcher claims, then its process dies before sending or recording anything.
    await repository.claimDue(clock.now(), 10, new Date(clock.now().getTime() + LEASE_MS));

    const survivor = dispatcher();
    clock.advance(LEASE_MS - 1);
    expect(await survivor.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(1);
    expect(await survivor.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(repository.find('a')?.attempts).toBe(2);
  });

  it('renews its claims while a slow receiver answers: no other dispatcher takes them over, and it is delivered once', async () => {
    let release = (): void => undefined;
    receiver.queue({ type: 'respond', status: 200, after: new Promise<void>((resolve) => (release = resolve)) });
    await enqueue(aNewOutboxMessage({ id: 'slow', target: 'user_thread' }));
    const renewals = new ManualTimer();
    const slow = dispatcher({ leaseMs: 15_000, renewalTimer: renewals }, 10_000);
    const other = dispatcher({ leaseMs: 15_000 });

    const pass = slow.runOnce();
    await waitFor(() => receiver.requests.length === 1);
    expect(renewals.delays()).toEqual([5_000]);
    // A minute of a receiver that has not answered yet, four leases long: renewed every third of one.
    for (let i = 0; i < 12; i++) {
      clock.advance(5_000);
      renewals.fireNext();
      await waitFor(() => renewals.count === 1);
      expect(await other.runOnce()).toMatchObject({ claimed: 0 });
    }
    release();

    expect(await pass).toMatchObject({ claimed: 1, delivered: 1 });
    expect(renewals.count).toBe(0);
    clock.advance(60_000);
    expect(await other.runOnce()).toMatchObject({ claimed: 0 });
    expect(receiver.requests).toHaveLength(1);
    expect(repository.find('slow')).toMatchObject({ attempts: 1 });
  });

  it('delivers again, with the same delivery id, when it crashed between sending and recording', async () => {
    await enqueue(
      aNewOutboxMessage({ id: 'a', target: 'user_thread', kind: 'proposal_rejected', payload: aRejectedPayload() }),
    );
    const markDelivered = jest
      .spyOn(repository, 'markDelivered')
      .mockRejectedValueOnce(new Error('connection terminated'));
    const subject = dispatcher();

    expect(await subject.runOnce()).toMatchObject({ unrecorded: 1 });
    expect(await subject.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(LEASE_MS);
    expect(await subject.runOnce()).toMatchObject({ delivered: 1 });

    expect(receiver.accepted().map(deliveryId)).toEqual(['a', 'a']);
    expect(new Set(receiver.accepted().map(deliveryId)).size).toBe(1);
    expect(markDelivered).toHaveBeenCalledTimes(2);
    expect(repository.find('a')?.deliveredAt).not.toBeNull();
    expect(logger.lines.find((l) => l.level === 'error')?.fields).toMatchObject({
      outboxId: 'a',
      error: 'Error: connection terminated',
    });
  });

  it('loses nothing: many messages, two dispatchers, a flaky receiver', async () => {
    const random = seeded(2026);
    receiver.answerWith(() => {
      const roll = random();
      if (roll < 0.3) return respond(500);
      if (roll < 0.35) return { type: 'reset' };
      if (roll < 0.4) return respond(429);
      return undefined;
    });
    channels.set('beta', {
      reviewChannel: { kind: 'webhook', url: receiver.url('/beta/review') },
      invoicesChannel: { kind: 'slack', url: receiver.url('/beta/invoices') },
      gatewayCallback: { kind: 'webhook', url: receiver.url('/beta/gateway') },
      webhookSecret: WebhookSecret.from('beta-secret'),
    });
    const targets = ['review', 'invoices', 'user_thread'] as const;
    const messages = Array.from({ length: 300 }, (_, i) =>
      aNewOutboxMessage({
        id: `m-${String(i).padStart(3, '0')}`,
        companyId: i % 2 ? 'acme' : 'beta',
        target: targets[i % 3],
        kind: 'proposal_auto_approved',
        payload: anAutoApprovedPayload({ proposalId: `p-${i}` }),
      }),
    );
    await enqueue(...messages);
    const markDelivered = jest.spyOn(repository, 'markDelivered');
    const one = dispatcher({ batchSize: 25, random: seeded(1) }, 2_000);
    const two = dispatcher({ batchSize: 25, random: seeded(2) }, 2_000);

    for (let round = 0; round < 100 && repository.all().some((m) => !m.deliveredAt); round += 1) {
      await Promise.all([one.drain(), two.drain()]);
      clock.advance(BACKOFF.capMs);
    }

    const rows = repository.all();
    expect(rows.filter((m) => m.deliveredAt)).toHaveLength(300);
    expect(rows.filter((m) => m.deadAt)).toHaveLength(0);
    // Slack requests carry no delivery id: recognise them by the proposal id they mention.
    const idOf = (r: ReceivedRequest): string =>
      r.headers['x-delivery-id'] !== undefined
        ? deliveryId(r)
        : `m-${/Proposal `p-(\d+)`/.exec(r.rawBody.toString('utf8'))![1].padStart(3, '0')}`;
    const acceptedIds = new Set(receiver.accepted().map(idOf));
    expect([...acceptedIds].sort()).toEqual(messages.map((m) => m.id));
    // From the dispatchers' point of view each message was delivered exactly once (claims are
    // disjoint). Overall it is at least once: a 200 that arrives after the sender's timeout counts
    // as a failure here and is sent again, with the same X-Delivery-Id for the receiver to drop.
    // Each pass records its deliveries in one call.
    const recorded = markDelivered.mock.calls.flatMap(([deliveries]) => deliveries.map((d) => d.id));
    expect(recorded).toHaveLength(300);
    expect(new Set(recorded).size).toBe(300);
    expect(markDelivered.mock.calls.length).toBeLessThan(300);
    expect(receiver.requests.length).toBeGreaterThan(300);
  });

  it('dead-letters after the policy, keeps the row for operators, and delivers it when requeued', async () => {
    receiver.otherwise(respond(502));
    await enqueue(aNewOutboxMessage({ id: 'd1' }));
    const subject = dispatcher({ deadLetter: { afterMs: 3_600_000, minAttempts: 5 } });

    for (let round = 0; round < 200 && !repository.find('d1')?.deadAt; round += 1) {
      await subject.runOnce();
      clock.advance(BACKOFF.capMs);
    }

    const dead = await repository.findDead(10);
    expect(dead.map((m) => m.id)).toEqual(['d1']);
    expect(dead[0].attempts).toBeGreaterThanOrEqual(5);
    expect(dead[0].deadAt!.getTime() - dead[0].createdAt.getTime()).toBeGreaterThanOrEqual(3_600_000);
    expect(dead[0].lastError).toMatch(/^gave up after \d+ attempts: http 502$/);
    expect(logger.lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      'notification dead-lettered; requeue it once the channel works',
    ]);
    expect(await subject.runOnce()).toMatchObject({ claimed: 0 });

    receiver.otherwise(respond(200));
    await repository.requeue('d1', clock.now());
    expect(await subject.runOnce()).toMatchObject({ delivered: 1 });
  });

  it('gives a message that waited out a long outage its minimum attempts before dead-lettering it', async () => {
    receiver.otherwise(respond(500));
    await enqueue(aNewOutboxMessage({ id: 'old' }));
    clock.advance(48 * 3_600_000);
    const subject = dispatcher({ deadLetter: { afterMs: 24 * 3_600_000, minAttempts: 3 } });

    const outcomes: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const pass = await subject.runOnce();
      outcomes.push(pass.dead ? 'dead' : pass.failed ? 'failed' : 'idle');
      clock.advance(BACKOFF.capMs);
    }

    expect(outcomes).toEqual(['failed', 'failed', 'dead', 'idle']);
    expect(receiver.requests).toHaveLength(3);
  });

  it('writes no secret, channel URL or payload into logs or stored errors', async () => {
    receiver.queue(respond(500), { type: 'reset' }, respond(404, 'no_service'), { type: 'hang' });
    await enqueue(
      aNewOutboxMessage({
        id: 'u1',
        target: 'user_thread',
        kind: 'proposal_rejected',
        payload: aRejectedPayload({ reason: 'private reason' }),
      }),
      aNewOutboxMessage({ id: 'r1', target: 'review' }),
    );

    await deliverEverything(dispatcher());

    const stored = JSON.stringify(repository.all().map((m) => m.lastError));
    const logged = JSON.stringify(logger.lines);
    for (const text of [stored, logged]) {
      for (const secretish of [
        SECRET,
        REVIEW_TOKEN,
        GATEWAY_KEY,
        INVOICES_TOKEN,
        '127.0.0.1',
        '/services/',
        'private reason',
      ]) {
        expect(text).not.toContain(secretish);
      }
    }
    expect(logger.lines.some((l) => l.level === 'warn')).toBe(true);
    expect(logger.lines.filter((l) => l.message === 'notification delivered')).toHaveLength(2);
    for (const request of receiver.requests) expect(request.rawBody.toString('utf8')).not.toContain(SECRET);
  });

  describe('polling loop', () => {
    it('polls on the timer, at once again after a full batch, and stops cleanly', async () => {
      const timer = new ManualTimer();
      await enqueue(...Array.from({ length: 3 }, (_, i) => aNewOutboxMessage({ id: `m${i}` })));
      const subject = dispatcher({ timer, batchSize: 2, pollIntervalMs: 750 });

      subject.start();
      subject.start();
      expect(timer.delays()).toEqual([0]);

      timer.fireNext();
      await waitFor(() => timer.count === 1);
      expect(timer.delays()).toEqual([0]);
      timer.fireNext();
      await waitFor(() => timer.count === 1);
      expect(timer.delays()).toEqual([750]);
      expect(receiver.accepted()).toHaveLength(3);

      await subject.stop();
      expect(timer.count).toBe(0);
      expect(subject.isRunning).toBe(false);
    });

    it('logs a failing pass and keeps polling', async () => {
      const timer = new ManualTimer();
      jest.spyOn(repository, 'claimDue').mockRejectedValueOnce(new Error('database is starting up'));
      await enqueue(aNewOutboxMessage({ id: 'm' }));
      const subject = dispatcher({ timer, pollIntervalMs: 500 });

      subject.start();
      timer.fireNext();
      await waitFor(() => timer.count === 1);
      expect(logger.lines).toContainEqual({
        level: 'error',
        message: 'notification outbox pass failed',
        fields: { error: 'Error: database is starting up' },
      });
      timer.fireNext();
      await waitFor(() => receiver.accepted().length === 1);
      await subject.stop();
    });

    it('runs one loop only when restarted while a pass is still finishing', async () => {
      const timer = new ManualTimer();
      receiver.queue({ type: 'hang' });
      await enqueue(aNewOutboxMessage({ id: 'm', target: 'user_thread' }));
      const subject = dispatcher({ timer, pollIntervalMs: 300 });

      subject.start();
      timer.fireNext();
      await waitFor(() => receiver.requests.length === 1);
      const stopping = subject.stop();
      subject.start();
      expect(timer.count).toBe(0);
      await stopping;
      await waitFor(() => timer.count === 1);

      expect(timer.delays()).toEqual([300]);
      await subject.stop();
    });

    it('waits for the pass in progress when stopped', async () => {
      const timer = new ManualTimer();
      receiver.queue({ type: 'hang' });
      await enqueue(aNewOutboxMessage({ id: 'm' }));
      const subject = dispatcher({ timer });

      subject.start();
      timer.fireNext();
      await waitFor(() => receiver.requests.length === 1);
      await subject.stop();

      expect(repository.find('m')?.lastError).toBe(`timed out after ${SEND_TIMEOUT_MS} ms`);
      expect(timer.count).toBe(0);
    });
  });
});
