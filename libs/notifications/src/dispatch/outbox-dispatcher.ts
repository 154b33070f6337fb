import {
  type DeliveryResult,
  delivered,
  permanentFailure,
  transientFailure,
  undeliverable,
} from '../delivery/delivery-result';
import type { SlackWebhookSender } from '../delivery/slack-webhook-sender';
import type { WebhookSender } from '../delivery/webhook-sender';
import type { OutboxMessage } from '../message/outbox-message';
import {
  CHANNEL_FOR_TARGET,
  type CompanyChannelDirectory,
  type CompanyChannels,
} from '../ports/company-channel-directory.port';
import type { Delivery, HeldClaim, OutboxRepository } from '../ports/outbox.repository.port';
import { renderSlackMessage } from '../rendering/slack-message.renderer';
import { renderWebhookEnvelope } from '../rendering/webhook-envelope.renderer';
import {
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  DEFAULT_DEAD_LETTER,
  type DeadLetterPolicy,
  backoffCeiling,
  backoffDelay,
  isExhausted,
} from './backoff';
import { type NotificationLogger, type TimeSource, type Timer, silentLogger, systemTimer } from './runtime';

export interface OutboxDispatcherDeps {
  repository: OutboxRepository;
  channels: CompanyChannelDirectory;
  webhook: WebhookSender;
  slack: SlackWebhookSender;
  /** Due times, leases and backoff are reckoned on it. */
  clock: TimeSource;
}

export interface OutboxDispatcherOptions {
  /** Rows claimed (and sent concurrently) per pass. Default 20. */
  batchSize?: number;
  /** Wait between passes when the last one was not full. Default 1 s. */
  pollIntervalMs?: number;
  /**
   * How long a claim lasts unless renewed: a dispatcher that dies mid-pass leaves its rows to come
   * back after it. While a pass runs, the claims it still holds are renewed every third of it, so a
   * slow receiver does not lose its claim mid-send. Default 15 s.
   */
  leaseMs?: number;
  backoff?: Partial<BackoffPolicy>;
  deadLetter?: Partial<DeadLetterPolicy>;
  timer?: Timer;
  /** The timer of lease renewals while a pass runs (apart from the polling `timer`). Default the system's. */
  renewalTimer?: Timer;
  /** [0, 1), for the jitter. Default Math.random. */
  random?: () => number;
  logger?: NotificationLogger;
  /**
   * The built-in development channel: a message whose company has no channel for its target is
   * written to the log as one readable line and recorded as delivered, instead of failing as
   * undeliverable. The outbox keeps the message, so the console's Messages page shows it too. For
   * development only (the demo companies have no channels); off by default.
   */
  developmentChannel?: boolean;
}

export interface DispatchSummary {
  claimed: number;
  /** Sent and recorded as delivered. */
  delivered: number;
  /** Failed and rescheduled. */
  failed: number;
  /** Given up on; kept in the outbox as dead. */
  dead: number;
  /**
   * The outcome could not be recorded (repository error, or the lease had been taken over); the
   * row comes back when its lease ends and may be delivered again.
   */
  unrecorded: number;
}

export interface DrainSummary extends DispatchSummary {
  passes: number;
}

/** What one message's attempt came to: `sent` is a delivery still to be recorded with the pass's others. */
type Outcome = Exclude<keyof DispatchSummary, 'claimed' | 'delivered'> | Sent;

interface Sent {
  readonly delivery: Delivery;
  readonly fields: Record<string, string | number>;
  readonly status: number;
}

const emptySummary = (): DispatchSummary => ({ claimed: 0, delivered: 0, failed: 0, dead: 0, unrecorded: 0 });

/** Name and message of a thrown value (duck-typed: it may come from another realm). */
function describeError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown error';
  const { name, message } = error as { name?: unknown; message?: unknown };
  return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : ''}`;
}

/**
 * Delivers the outbox at least once.
 *
 * Each pass claims due rows (leasing them), resolves each company's channel at send time, renders
 * and sends, then records the outcome: delivered; or failed and rescheduled after a jittered
 * exponential backoff (permanent failures wait the capped delay, `Retry-After` is honoured); or
 * dead once the dead-letter policy says so — at once for a message with nowhere to go (no such
 * company, no channel configured for its target). All state lives in the repository, so a new dispatcher
 * (after a restart, or on another instance) simply continues. A crash after a send and before its
 * record leaves the row leased: it is sent again when the lease ends, with the same
 * `X-Delivery-Id`, which receivers de-duplicate on.
 *
 * Framework-free: `start()`/`stop()` run the polling loop on the injected timer; `runOnce()` and
 * `drain()` run passes directly, for tests and the CLI.
 */
export class OutboxDispatcher {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly backoff: BackoffPolicy;
  private readonly deadLetter: DeadLetterPolicy;
  private readonly clock: TimeSource;
  private readonly timer: Timer;
  private readonly renewalTimer: Timer;
  private readonly random: () => number;
  private readonly logger: NotificationLogger;
  private readonly developmentChannel: boolean;

  private started = false;
  private handle: unknown;
  private currentPass: Promise<void> | undefined;

  constructor(
    private readonly deps: OutboxDispatcherDeps,
    options: OutboxDispatcherOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 20;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 15_000;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.deadLetter = { ...DEFAULT_DEAD_LETTER, ...options.deadLetter };
    this.clock = deps.clock;
    this.timer = options.timer ?? systemTimer;
    this.renewalTimer = options.renewalTimer ?? systemTimer;
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? silentLogger;
    this.developmentChannel = options.developmentChannel ?? false;
    if (this.batchSize < 1) throw new RangeError('batchSize must be at least 1');
    if (this.leaseMs <= 0) throw new RangeError('leaseMs must be positive');
  }

  get isRunning(): boolean {
    return this.started;
  }

  /** Starts polling; idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    // A pass still finishing after a stop() that was not awaited schedules the next one itself.
    if (this.currentPass === undefined && this.handle === undefined) this.schedule(0);
  }

  /** Stops polling and waits for the pass in progress, if any, to finish recording its outcomes. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.handle !== undefined) {
      this.timer.clear(this.handle);
      this.handle = undefined;
    }
    await this.currentPass;
  }

  /**
   * One pass: claim up to a batch of due rows, deliver them concurrently, record the outcomes —
   * failures one by one (each is fenced by its attempt), deliveries together at the end.
   */
  async runOnce(): Promise<DispatchSummary> {
    const now = this.clock.now();
    const claimed = await this.deps.repository.claimDue(now, this.batchSize, new Date(now.getTime() + this.leaseMs));
    const summary = emptySummary();
    summary.claimed = claimed.length;
    if (claimed.length === 0) return summary;

    const lookups = new Map<string, Promise<CompanyChannels | null>>();
    const channelsOf = (companyId: string): Promise<CompanyChannels | null> => {
      let lookup = lookups.get(companyId);
      if (!lookup) {
        lookup = this.deps.channels.channelsOf(companyId);
        lookups.set(companyId, lookup);
      }
      return lookup;
    };

    // The claims still held: renewed until their outcome is recorded (a delivery at the pass's end).
    const held = new Map<string, HeldClaim>(claimed.map((m) => [m.id, { id: m.id, attempt: m.attempts }]));
    const stopRenewing = this.keepRenewing(held);
    try {
      const outcomes = await Promise.all(
        claimed.map(async (message) => {
          const outcome = await this.process(message, channelsOf);
          if (typeof outcome === 'string') held.delete(message.id);
          return outcome;
        }),
      );
      const sent: Sent[] = [];
      for (const outcome of outcomes) {
        if (typeof outcome === 'string') summary[outcome] += 1;
        else sent.push(outcome);
      }
      await this.recordDeliveries(sent, summary);
    } finally {
      stopRenewing();
    }
    return summary;
  }

  /**
   * Renews the leases of `held` every third of the lease until the returned function is called.
   * Renewals never overlap: the next is set once the last has answered.
   */
  private keepRenewing(held: ReadonlyMap<string, HeldClaim>): () => void {
    const every = Math.max(1, Math.floor(this.leaseMs / 3));
    let stopped = false;
    let handle: unknown = undefined;
    const tick = (): void => {
      handle = undefined;
      void this.renew([...held.values()]).finally(() => {
        if (!stopped) handle = this.renewalTimer.set(tick, every);
      });
    };
    handle = this.renewalTimer.set(tick, every);
    return () => {
      stopped = true;
      if (handle !== undefined) this.renewalTimer.clear(handle);
    };
  }

  /** Extends the leases of claims still held; a failure is logged (the leases then lapse unless a later renewal lands). */
  private async renew(claims: HeldClaim[]): Promise<void> {
    if (claims.length === 0) return;
    try {
      const renewed = await this.deps.repository.renew(claims, new Date(this.clock.now().getTime() + this.leaseMs));
      if (renewed < claims.length) {
        this.logger.warn('notification leases taken over before they were renewed', {
          held: claims.length,
          renewed,
        });
      }
    } catch (error) {
      this.logger.warn('renewing notification leases failed', { held: claims.length, error: describeError(error) });
    }
  }

  /**
   * The pass's deliveries in one statement. If that fails, none is recorded: they come back when
   * their leases end and are delivered again, with the same delivery id (at least once).
   */
  private async recordDeliveries(sent: readonly Sent[], summary: DispatchSummary): Promise<void> {
    if (sent.length === 0) return;
    try {
      await this.deps.repository.markDelivered(sent.map((s) => s.delivery));
    } catch (error) {
      summary.unrecorded += sent.length;
      for (const { fields } of sent) {
        this.logger.error('notification outcome not recorded; it returns when its lease ends', {
          ...fields,
          error: describeError(error),
        });
      }
      return;
    }
    summary.delivered += sent.length;
    for (const { fields, status } of sent) this.logger.info('notification delivered', { ...fields, status });
  }

  /**
   * Passes until one claims nothing that is due now (failures are rescheduled into the future, so
   * this ends), or `maxPasses`.
   */
  async drain(maxPasses = 1_000): Promise<DrainSummary> {
    const total: DrainSummary = { ...emptySummary(), passes: 0 };
    while (total.passes < maxPasses) {
      const pass = await this.runOnce();
      total.passes += 1;
      for (const key of Object.keys(pass) as (keyof DispatchSummary)[]) total[key] += pass[key];
      if (pass.claimed === 0) break;
    }
    return total;
  }

  private schedule(ms: number): void {
    this.handle = this.timer.set(() => {
      this.handle = undefined;
      this.currentPass = this.loopPass().finally(() => {
        this.currentPass = undefined;
      });
    }, ms);
  }

  private async loopPass(): Promise<void> {
    let next = this.pollIntervalMs;
    try {
      const summary = await this.runOnce();
      if (summary.claimed >= this.batchSize) next = 0;
    } catch (error) {
      this.logger.error('notification outbox pass failed', { error: describeError(error) });
    }
    if (this.started && this.handle === undefined) this.schedule(next);
  }

  private async process(
    message: OutboxMessage,
    channelsOf: (companyId: string) => Promise<CompanyChannels | null>,
  ): Promise<Outcome> {
    const fields = {
      outboxId: message.id,
      companyId: message.companyId,
      kind: message.kind,
      target: message.target,
      attempt: message.attempts,
    };
    try {
      const previousAttempts = message.attempts - 1;
      if (isExhausted(previousAttempts, message.createdAt, this.clock.now(), this.deadLetter)) {
        return await this.bury(
          message,
          `gave up after ${previousAttempts} attempts: ${message.lastError ?? 'no outcome recorded'}`,
          fields,
        );
      }

      const result = await this.attempt(message, channelsOf);
      const finishedAt = this.clock.now();

      if (result.ok) return { delivery: { id: message.id, at: finishedAt }, fields, status: result.status };

      if (result.undeliverable) return await this.bury(message, `undeliverable: ${result.error}`, fields);
      const error = `${result.error}${result.permanent ? ' (permanent)' : ''}`;
      if (isExhausted(message.attempts, message.createdAt, finishedAt, this.deadLetter)) {
        return await this.bury(message, `gave up after ${message.attempts} attempts: ${error}`, fields);
      }
      const delayMs = this.retryDelay(message.attempts, result);
      const nextAttemptAt = new Date(finishedAt.getTime() + delayMs);
      if (!(await this.deps.repository.markFailed(message.id, message.attempts, error, nextAttemptAt))) {
        this.logger.warn('notification outcome not recorded: lease taken over', { ...fields, error });
        return 'unrecorded';
      }
      this.logger.warn('notification delivery failed; will retry', {
        ...fields,
        error,
        delayMs,
        nextAttemptAt: nextAttemptAt.toISOString(),
      });
      return 'failed';
    } catch (error) {
      this.logger.error('notification outcome not recorded; it returns when its lease ends', {
        ...fields,
        error: describeError(error),
      });
      return 'unrecorded';
    }
  }

  private async bury(message: OutboxMessage, error: string, fields: Record<string, string | number>): Promise<Outcome> {
    if (!(await this.deps.repository.markDead(message.id, message.attempts, error, this.clock.now()))) {
      this.logger.warn('notification outcome not recorded: lease taken over', { ...fields, error });
      return 'unrecorded';
    }
    this.logger.error('notification dead-lettered; requeue it once the channel works', { ...fields, error });
    return 'dead';
  }

  private retryDelay(attempt: number, result: Extract<DeliveryResult, { ok: false }>): number {
    const delay = result.permanent
      ? backoffDelay(Number.POSITIVE_INFINITY, this.backoff, this.random)
      : backoffDelay(attempt, this.backoff, this.random);
    const asked =
      result.retryAfterMs === undefined
        ? 0
        : Math.min(result.retryAfterMs, backoffCeiling(Number.POSITIVE_INFINITY, this.backoff));
    return Math.max(delay, asked);
  }

  private async attempt(
    message: OutboxMessage,
    channelsOf: (companyId: string) => Promise<CompanyChannels | null>,
  ): Promise<DeliveryResult> {
    let channels: CompanyChannels | null;
    try {
      channels = await channelsOf(message.companyId);
    } catch (error) {
      return transientFailure(`channel lookup failed: ${describeError(error)}`);
    }
    if (!channels) return undeliverable('unknown company');

    const setting = CHANNEL_FOR_TARGET[message.target];
    if (!setting) return permanentFailure(`unknown target ${String(message.target)}`);
    const channel = channels[setting];
    if (!channel) {
      if (!this.developmentChannel) return undeliverable(`no ${setting} configured`);
      this.logger.info(`development channel (${setting}): ${renderSlackMessage(message).text}`, {
        outboxId: message.id,
        companyId: message.companyId,
        kind: message.kind,
      });
      return delivered(0);
    }

    try {
      switch (channel.kind) {
        case 'webhook': {
          if (!channels.webhookSecret) return permanentFailure('no webhook secret configured');
          const envelope = renderWebhookEnvelope(message, this.clock.now());
          return await this.deps.webhook.send({ url: channel.url, envelope, secret: channels.webhookSecret });
        }
        case 'slack':
          return await this.deps.slack.send({ url: channel.url, message: renderSlackMessage(message) });
        default:
          return permanentFailure(`unknown channel kind in ${setting}`);
      }
    } catch (error) {
      return permanentFailure(`could not render or send: ${describeError(error)}`);
    }
  }
}
