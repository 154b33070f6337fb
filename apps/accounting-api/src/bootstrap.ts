import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { urlencoded } from 'express';
import { Logger } from 'nestjs-pino';
import { CompanyRepository, type Clock } from '@app/domain';
import { runAsRequest } from '@app/persistence';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { ensureDevKeys } from './auth/dev-keys';
import { requestId, requireJsonBodies } from './http/middleware';
import { refuseControlCharactersInUrl, refuseEncodedBodies } from './http/request-body';
import { createValidationPipe } from './http/validation';
import { mountOpenApi } from './http/openapi';
import { limitConnectionsPerAddress } from './http/connections-per-address';
import { HttpMetrics } from './metrics/http-metrics';
import { Draining, drainHttp } from './platform/shutdown';
import { QuietBootstrapLogger } from './platform/logging';
import { DemoConnections } from './sandbox/demo-connections';
import { ExecutorWorker } from './execution/executor.worker';

export interface CreateAppOptions {
  clock?: Clock;
  /** Buffer Nest's own start-up logs into pino (off in tests to keep output quiet). */
  bufferLogs?: boolean;
}

/**
 * Builds the whole service (not yet listening): dev keys when no gateway JWKS is configured,
 * the database (migrated), the HTTP edge in the order requests meet it.
 */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<NestExpressApplication> {
  if (config.usesDevKeys) ensureDevKeys(config.dataDir);
  const module = AppModule.forRoot({ config, clock: options.clock });
  const app = await NestFactory.create<NestExpressApplication>(module, {
    bodyParser: false,
    abortOnError: false, // let start-up errors reach the caller (main prints them; tests see them)
    bufferLogs: options.bufferLogs ?? true,
    logger: config.logLevel === 'silent' ? false : undefined,
  });
  await configureApp(app, config);
  return app;
}

/**
 * The HTTP edge, in the order a request meets it: server timeouts and connection cap, request id,
 * metrics, then what can be refused without reading the body — compressed bodies and non-JSON
 * media types (415), control characters in the path or query (400) — then Nest's guards (gateway
 * token, rate limit), and only then the JSON body, read with the route's limit (JsonBodyGuard),
 * validation and the problem+json filter. Also the OpenAPI document and first-start seeding.
 * Shared by the service and the tests.
 */
export async function configureApp(app: NestExpressApplication, config: AppConfig): Promise<void> {
  limitSlowClients(app.getHttpServer() as Server, config);
  // Nest's start-up lines (modules, routes) at debug level: the banner is what a newcomer sees.
  app.useLogger(new QuietBootstrapLogger(app.get(Logger)));
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // A request's statements use the API's connection pool, never the background work's.
  app.use((_request: unknown, _response: unknown, next: () => void) => runAsRequest(next));
  // After SIGTERM: readiness 503 and `Connection: close` on every response (main.ts, shutdown.ts).
  app.use(app.get(Draining).middleware);
  app.use(requestId);
  app.use(app.get(HttpMetrics).middleware);
  app.use(refuseEncodedBodies);
  app.use(requireJsonBodies);
  app.use(refuseControlCharactersInUrl);
  // The Tripletex token form posts to the OAuth callback as a form (the only non-JSON body; public).
  app.use('/v1/oauth', urlencoded({ extended: false, limit: '16kb', inflate: false }));
  app.useGlobalPipes(createValidationPipe());
  mountOpenApi(app, config.publicUrl);
  if (config.seedDemoCompany) {
    const created = await app.get(CompanyRepository).create({ id: 'demo', name: 'Demo AS' });
    if (created) app.get(Logger).log('created the demo company "demo"');
    // Sandbox mode: `demo` on the Tripletex sandbox, `demo-fiken` on the Fiken sandbox.
    if (config.providerSandbox) await app.get(DemoConnections).seed();
  }
}

/**
 * Starts listening on PORT, bound to HOST when it is set (127.0.0.1: this machine only) and else
 * to every interface (Node's default: `::` with IPv4 beside it, or `0.0.0.0` without IPv6), and
 * returns the address it is bound to.
 */
export async function listen(app: NestExpressApplication, config: AppConfig): Promise<AddressInfo> {
  if (config.host === undefined) await app.listen(config.port);
  else await app.listen(config.port, config.host);
  return (app.getHttpServer() as Server).address() as AddressInfo;
}

/**
 * A client must send its whole request within HTTP_REQUEST_TIMEOUT_MS and its headers within
 * HTTP_HEADERS_TIMEOUT_MS, however slowly it trickles them; an idle keep-alive connection closes
 * after HTTP_KEEP_ALIVE_TIMEOUT_MS; beyond HTTP_MAX_CONNECTIONS new connections are dropped, and
 * beyond HTTP_MAX_CONNECTIONS_PER_ADDRESS those of one client address. The latter is below the
 * former (env.schema.ts), so one client holding all it may still leaves room for the others and for
 * the orchestrator's `/health/live`.
 * Node checks the first two on an interval, set here so that a timeout is enforced within about
 * half its length rather than within Node's default 30 s.
 */
function limitSlowClients(server: Server, config: AppConfig): void {
  server.requestTimeout = config.httpRequestTimeoutMs;
  server.headersTimeout = config.httpHeadersTimeoutMs;
  server.keepAliveTimeout = config.httpKeepAliveTimeoutMs;
  server.maxConnections = config.httpMaxConnections;
  limitConnectionsPerAddress(server, config.httpMaxConnectionsPerAddress);
  // Read when the server starts listening (Node's `connectionsCheckingInterval` server option).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    50,
    Math.min(30_000, Math.floor(Math.min(config.httpHeadersTimeoutMs, config.httpRequestTimeoutMs) / 2)),
  );
}

/**
 * Graceful shutdown on SIGTERM (and SIGINT): readiness 503 and the listener closed at once, the
 * executor stops claiming, requests in flight finish within SHUTDOWN_GRACE_MS (keep-alive
 * connections get `Connection: close`), then the background loops stop, the database closes and
 * the process exits 0 with one log line. A second signal exits at once (1).
 */
export function exitGracefullyOn(app: NestExpressApplication, config: AppConfig): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting at once\n`);
      process.exit(1);
    }
    stopping = true;
    void shutDown(app, config, signal);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Beyond the grace, how long the executor's pass in progress and the database may take to close. */
const CLOSE_MARGIN_MS = 5_000;

/**
 * How long a shutdown may take in all: the grace for requests in flight, then an executor pass
 * in progress (a provider call, at most PROVIDER_TIMEOUT_MS) and a margin for the background
 * loops and the database pools to close.
 */
export function shutdownDeadlineMs(config: AppConfig): number {
  return config.shutdownGraceMs + config.providerTimeoutMs + CLOSE_MARGIN_MS;
}

/**
 * One shutdown: drains HTTP and stops the executor, then closes the application (background loops,
 * database), logs one line and exits 0. Whatever hangs — a pool whose connections never close, a
 * loop that never returns — the process still ends: at `shutdownDeadlineMs` it logs one line naming
 * the steps that had not finished and exits 1.
 */
export async function shutDown(
  app: NestExpressApplication,
  config: AppConfig,
  signal: NodeJS.Signals,
  exit: (code: number) => Promise<void> | void = exitAfterFlush,
): Promise<void> {
  const unfinished = new Set(['the HTTP drain', "the executor's stop", 'closing the application (workers, database)']);
  const step = <T>(name: string, work: Promise<T> | T): Promise<T> =>
    Promise.resolve(work).finally(() => unfinished.delete(name));
  const deadlineMs = shutdownDeadlineMs(config);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
  const work = (async () => {
    const [http] = await Promise.all([
      step('the HTTP drain', drainHttp(app.getHttpServer() as Server, app.get(Draining), config.shutdownGraceMs)),
      step("the executor's stop", executorOf(app)?.stop()),
    ]);
    await step('closing the application (workers, database)', app.close());
    return http;
  })();
  try {
    const outcome = await Promise.race([work, deadline]);
    if (outcome === 'deadline') {
      process.stderr.write(
        `shutdown on ${signal} did not finish within ${deadlineMs} ms; unfinished: ${[...unfinished].join(', ')}; exiting 1\n`,
      );
      await exit(1);
      return;
    }
    app
      .get(Logger)
      .log(
        `shut down on ${signal} in ${outcome.ms} ms: ${outcome.inFlight} request(s) in flight finished` +
          (outcome.cut > 0 ? `, ${outcome.cut} cut at the grace of ${config.shutdownGraceMs} ms` : ''),
      );
    await exit(0);
  } catch (error: unknown) {
    process.stderr.write(`shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
    await exit(1);
  } finally {
    clearTimeout(timer);
  }
}

/** The executor's loop, when this process runs one. */
function executorOf(app: NestExpressApplication): ExecutorWorker | undefined {
  try {
    return app.get(ExecutorWorker, { strict: false });
  } catch {
    return undefined;
  }
}

/** Exits once what was written to stdout so far (the shutdown line) has been handed to the OS. */
async function exitAfterFlush(code: number): Promise<void> {
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(code);
}
