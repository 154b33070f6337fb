import type { Logger } from '@nestjs/common';

export interface PollingLoopOptions {
  /** One pass of the job; resolves true when it found work (the next pass then follows at once). */
  pass: () => Promise<boolean>;
  /** The pause after a pass that found nothing (or failed). */
  intervalMs: number;
  /** Pause once before the first pass (so it does not run amid the start-up of other jobs). */
  pauseFirst: boolean;
  logger: Logger;
  /** Used in the log line when a pass fails, e.g. "execution round". */
  label: string;
}

/**
 * A background job's loop in one instance: passes back to back while there is work, a pause when
 * there is none, a failed pass logged and followed by a pause. `stop` ends the pause at once and
 * waits for the pass in progress.
 */
export class PollingLoop {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly options: PollingLoopOptions) {}

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
    let idle = this.options.pauseFirst;
    while (this.running) {
      if (idle) {
        await this.pause(this.options.intervalMs);
        if (!this.running) return;
      }
      try {
        idle = !(await this.options.pass());
      } catch (error) {
        this.options.logger.error(
          `${this.options.label} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        idle = true;
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
