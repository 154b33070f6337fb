import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ProposalExecutor } from '@app/application';
import { PollingLoop } from '../platform/polling-loop';
import { ExecutorSettings } from './executor.settings';

/**
 * The execution loop of one instance: claims and executes due proposals round after round, and
 * pauses `pollMs` when a round found nothing. On shutdown the round in progress stops taking
 * claims, and the loop waits for the executions it holds.
 */
@Injectable()
export class ExecutorWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;
  /** Aborted on stop: a round (which goes on while work is due) then takes no more claims. */
  private stopping = new AbortController();

  constructor(
    executor: ProposalExecutor,
    private readonly settings: ExecutorSettings,
  ) {
    this.loop = new PollingLoop({
      pass: async () => (await executor.runOnce(this.stopping.signal)).length > 0,
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
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
  }
}
