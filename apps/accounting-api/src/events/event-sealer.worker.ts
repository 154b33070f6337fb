import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { EventSealer } from '@app/persistence';
import { AppConfig } from '../config/app-config';
import { PollingLoop } from '../platform/polling-loop';

/**
 * Seals new events into their companies' hash chains every EVENT_SEAL_INTERVAL_MS (0: not in this
 * instance). Any number of instances may run it: the sealer takes each company's chain lock.
 *
 * Stops in `beforeApplicationShutdown`, which Nest runs for every module before any
 * `onApplicationShutdown` (where PersistenceModule closes the database): the pass in progress
 * finishes first, whatever order the modules' shutdown hooks run in.
 */
@Injectable()
export class EventSealerWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    sealer: EventSealer,
    private readonly config: AppConfig,
  ) {
    // The first pass comes one interval after start, not amid the start-up of the other jobs.
    this.loop = new PollingLoop({
      pass: async () => {
        await sealer.sealPending();
        return false;
      },
      intervalMs: config.eventSealIntervalMs,
      pauseFirst: true,
      logger: new Logger(EventSealerWorker.name),
      label: 'sealing events',
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.eventSealIntervalMs > 0) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the loop and waits for the pass in progress. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
