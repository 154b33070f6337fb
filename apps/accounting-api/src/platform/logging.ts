import type { LoggerService } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config';
import { routeTemplate } from '../http/route-template';

/**
 * Paths pino removes from every log line: credentials in headers, and any field that could hold a
 * provider token, a key or a receipt, wherever it appears one or two levels down.
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'employeeToken',
  'consumerToken',
  'sessionToken',
  'clientSecret',
  'client_secret',
  'dek',
  'kek',
  'secret',
  'password',
  'dataBase64',
];

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]),
];

/**
 * What a database error copies from the statement and the driver: the SQL, its bound values (a
 * whole proposal, say) and the server's detail lines, which quote the values too. None is logged.
 */
const STATEMENT_FIELDS = ['query', 'parameters', 'driverError', 'detail', 'where', 'internalQuery', 'hint'];

/** pino's error serializer without the statement and its values (TypeORM's QueryFailedError carries both). */
function serializeError(error: Error): Record<string, unknown> {
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of STATEMENT_FIELDS) delete serialized[field];
  return serialized;
}

/**
 * The service's logger: JSON lines, or with LOG_FORMAT=pretty (the default in a developer's
 * terminal) the same lines made readable by pino-pretty in a worker thread. Redaction happens
 * before either.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      transport:
        config.logFormat === 'pretty'
          ? { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }
          : undefined,
      // The request id was set by our first middleware; pino-http reuses it.
      genReqId: (request) => (request as { id?: string }).id ?? 'unknown',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // Never log bodies, query strings or paths: bodies may hold receipts, query strings codes, and
      // paths an employee's user id. The completion line names the route template instead
      // (`/v1/config/employees/:userId`, or `unmatched`), known only once routing has run.
      // The serializers get the raw objects (wrapSerializers: false) and copy two fields each:
      // pino-http's wrappers would first build a full copy of each request and response (every
      // header, the URL, the addresses) per request, only for it to be thrown away here. The access
      // line keeps the request id, method, status, route and response time.
      wrapSerializers: false,
      serializers: {
        err: serializeError,
        req: (req: { id?: string; method?: string }) => ({ id: req.id, method: req.method }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
      customSuccessObject: (request, _response, fields: object) => ({
        ...fields,
        route: routeTemplate(request as Request),
      }),
      customErrorObject: (request, _response, _error, fields: object) => ({
        ...fields,
        route: routeTemplate(request as Request),
      }),
      customLogLevel: (_request, response, error) =>
        error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
      autoLogging: { ignore: (request) => request.url === '/health' || request.url === '/metrics' },
    },
  };
}

/**
 * Where Nest's own start-up lines come from: one line per module initialised, per controller and
 * per route mapped (about 110 in all). They say nothing an operator acts on, and in a developer's
 * terminal they bury the banner with the login links, so they are logged at debug level
 * (LOG_LEVEL=debug shows them). "Nest application successfully started" and everything else keep
 * their level.
 */
const BOOTSTRAP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** The service's logger for Nest, with Nest's start-up chatter (BOOTSTRAP_CONTEXTS) at debug level. */
export class QuietBootstrapLogger implements LoggerService {
  constructor(private readonly logger: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && BOOTSTRAP_CONTEXTS.has(context)) this.logger.debug?.(message, ...rest);
    else this.logger.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.logger.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.logger.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.logger.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.logger.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.logger.fatal?.(message, ...rest);
  }
}
