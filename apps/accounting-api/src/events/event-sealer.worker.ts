import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { EventSealer } from '@app/persistence';
import { AppConfig } from '../config/app-config';

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
  private readonly logger = new Logger(EventSealerWorker.name);
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly sealer: EventSealer,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.eventSealIntervalMs > 0) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops the loop and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  /** The first pass comes one interval after start, not amid the start-up of the other jobs. */
  private async run(): Promise<void> {
    while (this.running) {
      await this.pause(this.config.eventSealIntervalMs);
      if (!this.running) return;
      try {
        await this.sealer.sealPending();
      } catch (error) {
        this.logger.error(`sealing events failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
