import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ProposalExecutor } from '@app/application';
import { ExecutorSettings } from './executor.settings';

/**
 * The execution loop of one instance: claims and executes due proposals round after round, and
 * pauses `pollMs` when a round found nothing. Stops taking work on shutdown and waits for the
 * round in progress.
 */
@Injectable()
export class ExecutorWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ExecutorWorker.name);
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly executor: ProposalExecutor,
    private readonly settings: ExecutorSettings,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.enabled) this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = (await this.executor.runOnce()).length;
      } catch (error) {
        this.logger.error(`execution round failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (claimed === 0 && this.running) await this.pause(this.settings.pollMs);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }
}
