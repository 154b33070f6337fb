import { performance } from 'node:perf_hooks';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { NextFunction, Request, Response } from 'express';
import { routeTemplate } from '../http/route-template';

/**
 * The service's Prometheus registry: process metrics, the event loop's busy time, and HTTP requests
 * by route and status.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // Busy time rather than a utilization gauge, so that rate() over any window is that window's
    // utilization: near 1 the one thread that serves every request is saturated and latency
    // grows without bound, whatever the CPU graphs show (GC helper threads count there too).
    let countedMs = 0;
    new Counter({
      name: 'nodejs_eventloop_busy_seconds_total',
      help: 'Seconds the event loop spent running callbacks rather than waiting for I/O; rate() is its utilization (1 = saturated)',
      registers: [this.registry],
      collect() {
        const busyMs = performance.eventLoopUtilization().active;
        this.inc((busyMs - countedMs) / 1000);
        countedMs = busyMs;
      },
    });
  }

  /** Express middleware: one observation per finished response, labelled by the matched route. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.on('finish', () => {
      const route = routeTemplate(request);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.requests.inc({ method: request.method, route, status: String(response.statusCode) });
      this.duration.observe({ method: request.method, route }, seconds);
    });
    next();
  };
}
