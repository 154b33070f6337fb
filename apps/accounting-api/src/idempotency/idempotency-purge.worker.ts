import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { IdempotencyStore } from '@app/application';
import { Clock } from '@app/domain';
import { AppConfig } from '../config/app-config';
import { PollingLoop } from '../platform/polling-loop';

/** Keys deleted per statement: short transactions, however many expired at once. */
export const PURGE_BATCH = 1_000;

/**
 * Deletes idempotency keys whose 24 h (docs/api.md §1) have passed, every
 * IDEMPOTENCY_PURGE_INTERVAL_MS (0: not in this instance), a batch at a time until none is left.
 * An expired key already counts as unused, so the purge only keeps the table from growing; any
 * number of instances may run it (a key being taken over is skipped, not waited for).
 */
@Injectable()
export class IdempotencyPurgeWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    private readonly keys: IdempotencyStore,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.loop = new PollingLoop({
      // A full batch means more may be waiting: the next pass follows at once.
      pass: async () => (await this.purgeOnce()) === PURGE_BATCH,
      intervalMs: config.idempotencyPurgeIntervalMs,
      pauseFirst: true,
      logger: new Logger(IdempotencyPurgeWorker.name),
      label: 'purging expired idempotency keys',
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.idempotencyPurgeIntervalMs > 0) this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One batch; how many keys went. */
  purgeOnce(): Promise<number> {
    return this.keys.purgeExpired(this.clock.now(), PURGE_BATCH);
  }
}
