import { Logger } from '@nestjs/common';
import type { EventSealer, SealResult } from '@app/persistence';
import { AppConfig } from '../config/app-config';
import { EventSealerWorker } from './event-sealer.worker';

/** A sealer whose passes finish when the test says so. */
class ControlledSealer {
  passes = 0;
  private finish: (() => void) | null = null;

  sealPending(): Promise<SealResult> {
    this.passes++;
    return new Promise((resolve) => {
      this.finish = () => resolve({ sealed: 0, companies: 0 });
    });
  }

  finishPass(): void {
    this.finish?.();
    this.finish = null;
  }
}

function worker(sealer: Pick<EventSealer, 'sealPending'>, intervalMs: number): EventSealerWorker {
  const config = Object.assign(new AppConfig(), { eventSealIntervalMs: intervalMs });
  return new EventSealerWorker(sealer as EventSealer, config);
}

/** Lets every pending promise callback run (setImmediate stays real under the fake timers). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('EventSealerWorker', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('seals one interval after start, and then every interval', async () => {
    const sealer = new ControlledSealer();
    const subject = worker(sealer, 1000);

    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(999);
    expect(sealer.passes).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sealer.passes).toBe(1);
    sealer.finishPass();
    await jest.advanceTimersByTimeAsync(1000);
    expect(sealer.passes).toBe(2);

    sealer.finishPass();
    await subject.beforeApplicationShutdown();
  });

  it('waits at shutdown for the pass in progress, then stops at once without another pass', async () => {
    const sealer = new ControlledSealer();
    const subject = worker(sealer, 60_000);
    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(sealer.passes).toBe(1);

    let stopped = false;
    const stopping = subject.beforeApplicationShutdown().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);

    sealer.finishPass();
    await settle();
    expect(stopped).toBe(true);
    await stopping;
    expect(sealer.passes).toBe(1);
  });

  it('stops at once while waiting for the next pass', async () => {
    const sealer = new ControlledSealer();
    const subject = worker(sealer, 60_000);
    subject.onApplicationBootstrap();

    await subject.beforeApplicationShutdown();

    expect(sealer.passes).toBe(0);
  });

  it('does not run with EVENT_SEAL_INTERVAL_MS=0', async () => {
    const sealer = new ControlledSealer();
    const subject = worker(sealer, 0);

    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10_000);

    expect(sealer.passes).toBe(0);
    await subject.beforeApplicationShutdown();
  });

  it('logs a failed pass and keeps going', async () => {
    let passes = 0;
    const subject = worker(
      {
        sealPending: () => {
          passes++;
          return Promise.reject(new Error('database away'));
        },
      },
      1000,
    );
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);

    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3000);
    await subject.beforeApplicationShutdown();

    expect(passes).toBe(3);
    expect(logged).toHaveBeenCalledWith('sealing events failed: database away');
    logged.mockRestore();
  });
});
