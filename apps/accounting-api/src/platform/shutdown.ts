import type { NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';

/**
 * The service's graceful shutdown (docs/operations.md, "Graceful shutdown"). Once `drain` is
 * called, readiness answers 503, and every response from then on — also of a request already in
 * flight — carries `Connection: close`, so that keep-alive clients move to another instance.
 * Counts the requests in flight for the shutdown's log line.
 */
export class Draining {
  private draining = false;
  private inFlight = 0;

  get active(): boolean {
    return this.draining;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  drain(): void {
    this.draining = true;
  }

  readonly middleware = (_request: Request, response: Response, next: NextFunction): void => {
    this.inFlight++;
    response.once('close', () => this.inFlight--);
    const writeHead = response.writeHead;
    const state = this;
    response.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
      if (state.draining) this.setHeader('Connection', 'close');
      return writeHead.apply(this, args);
    } as Response['writeHead'];
    next();
  };
}

export interface ShutdownOutcome {
  /** Requests in flight when the listener closed. */
  inFlight: number;
  /** Connections still open when the grace ran out, closed then. */
  cut: number;
  ms: number;
}

/**
 * Stops the HTTP edge: readiness 503 and `Connection: close` at once, the listener closed (no new
 * connection), idle keep-alive connections closed, and the requests in flight given `graceMs` to
 * finish; connections still open after it are closed. Resolves when the server has no connection.
 */
export async function drainHttp(server: Server, draining: Draining, graceMs: number): Promise<ShutdownOutcome> {
  const started = Date.now();
  draining.drain();
  const inFlight = draining.requestsInFlight;
  let cut = 0;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // An idle connection may turn busy and then idle again; close those as they come.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const grace = setTimeout(() => {
    cut = draining.requestsInFlight;
    server.closeAllConnections();
  }, graceMs);
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(grace);
  }
  return { inFlight, cut, ms: Date.now() - started };
}
