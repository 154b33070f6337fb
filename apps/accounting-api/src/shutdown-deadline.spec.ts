import { createServer } from 'node:http';
import { Logger } from 'nestjs-pino';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from './config/app-config';
import { Draining } from './platform/shutdown';
import { shutDown, shutdownDeadlineMs } from './bootstrap';

const config = { shutdownGraceMs: 1_000, providerTimeoutMs: 2_000 } as AppConfig;

/** An application as shutDown sees it, whose close resolves when `close` says so. */
function fakeApp(close: () => Promise<void>) {
  const log = jest.fn();
  const server = createServer();
  const app = {
    getHttpServer: () => server,
    get: (token: unknown) => {
      if (token === Draining) return new Draining();
      if (token === Logger) return { log };
      throw new Error('not in this application');
    },
    close,
  } as unknown as NestExpressApplication;
  return { app, log };
}

describe('shutDown', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers();
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    jest.useRealTimers();
    stderr.mockRestore();
  });

  it('bounds the whole shutdown by the grace, a provider call and a margin', () => {
    expect(shutdownDeadlineMs(config)).toBe(1_000 + 2_000 + 5_000);
  });

  it('exits 1 at the deadline, naming what had not finished, when the application never closes', async () => {
    const { app, log } = fakeApp(() => new Promise<void>(() => undefined));
    const exit = jest.fn();
    const done = shutDown(app, config, 'SIGTERM', exit);
    await jest.advanceTimersByTimeAsync(shutdownDeadlineMs(config) - 1);
    expect(exit).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    await done;
    expect(exit).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(1);
    const line = stderr.mock.calls.map((call) => String(call[0])).join('');
    expect(line).toMatch(/shutdown on SIGTERM did not finish within 8000 ms/);
    expect(line).toMatch(/unfinished: closing the application \(workers, database\)/);
    expect(line).not.toMatch(/HTTP drain/);
    expect(log).not.toHaveBeenCalled();
  });

  it('exits 0 with one line when everything closes in time', async () => {
    jest.useRealTimers(); // flushing stdout waits for a real write callback
    const { app, log } = fakeApp(() => Promise.resolve());
    const exit = jest.fn();
    await shutDown(app, config, 'SIGTERM', exit);
    expect(exit).toHaveBeenCalledWith(0);
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0][0])).toMatch(/^shut down on SIGTERM in \d+ ms: 0 request\(s\) in flight finished/);
  });
});
