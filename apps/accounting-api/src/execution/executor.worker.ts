import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ProposalExecutor } from '@app/application';
import { PollingLoop } from '../platform/polling-loop';
import { ExecutorSettings } from './executor.settings';

/**
 * The execution loop of one instance: claims and executes due proposals round after round, and
 * pauses `pollMs` when a round found nothing. Stops taking work on shutdown and waits for the
 * round in progress.
 */
@Injectable()
export class ExecutorWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    executor: ProposalExecutor,
    private readonly settings: ExecutorSettings,
  ) {
    this.loop = new PollingLoop({
      pass: async () => (await executor.runOnce()).length > 0,
      intervalMs: settings.pollMs,
      pauseFirst: false,
      logger: new Logger(ExecutorWorker.name),
      label: 'execution round',
    });
  }

  onApplicationBootstrap(): void {
    if (this.settings.enabled) this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
