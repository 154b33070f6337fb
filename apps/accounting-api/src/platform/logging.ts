import type { LoggerService } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config';
import { routeTemplate } from '../http/route-template';

/**
 * Fields removed from every log line, wherever they appear: credentials in headers, and any field
 * that could hold a provider token, a key or a receipt.
 */
const SECRET_FIELDS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
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
]);

export const REDACTED = '[redacted]';

/** How deep scrubSecrets looks into a logged object; anything deeper is replaced whole. */
const SCRUB_DEPTH = 6;

/**
 * A copy of `value` with every SECRET_FIELDS field censored, at any depth up to SCRUB_DEPTH
 * (deeper objects are censored whole). Objects that serialise themselves (`toJSON`: dates,
 * buffers) are kept as they are; anything else, an error included, becomes a plain copy of its own
 * enumerable fields — what JSON would have written of it. The input is never changed: it may be
 * the caller's own object.
 */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  if (depth >= SCRUB_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => scrubSecrets(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] = SECRET_FIELDS.has(key) ? REDACTED : scrubSecrets(field, depth + 1);
  }
  return copy;
}

/** The fields whose own serializer (below) reduces them; scrubLine leaves them to it. */
const SERIALIZED_FIELDS = new Set(['req', 'res', 'err']);

/**
 * A log line's object with its secrets scrubbed. Its request, response and error stay the objects
 * themselves, for their serializers to read: those keep two fields of the request and response,
 * and scrub what they keep of the error (serializeError).
 */
function scrubLine(object: Record<string, unknown>): Record<string, unknown> {
  const line: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    line[key] = SECRET_FIELDS.has(key) ? REDACTED : SERIALIZED_FIELDS.has(key) ? value : scrubSecrets(value, 1);
  }
  return line;
}

/**
 * What a database error copies from the statement and the driver: the SQL, its bound values (a
 * whole proposal, say) and the server's detail lines, which quote the values too. None is logged.
 */
const STATEMENT_FIELDS = ['query', 'parameters', 'driverError', 'detail', 'where', 'internalQuery', 'hint'];

/**
 * pino's error serializer without the statement and its values (TypeORM's QueryFailedError carries
 * both), and with secrets scrubbed from whatever else the error carries.
 */
function serializeError(error: Error): Record<string, unknown> {
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of STATEMENT_FIELDS) delete serialized[field];
  return scrubSecrets(serialized) as Record<string, unknown>;
}

/**
 * The service's logger: JSON lines, or with LOG_FORMAT=pretty (the default in a developer's
 * terminal) the same lines made readable by pino-pretty in a worker thread. Secrets are scrubbed
 * before either.
 *
 * Secrets are scrubbed from each line's object as it is written (`formatters.log`, scrubSecrets)
 * and from errors by their serializer, not by pino's `redact` paths: pino applies those to a child
 * logger's bindings too, and pino-http makes a child logger for every request, so the wildcard
 * paths (a secret one, two or more levels down) cost every request 10–40 µs — 13 % of a whoami's
 * CPU — whether or not a line was ever written. The only child bindings are pino-http's request,
 * which its serializer below reduces to its id and method.
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
      formatters: { log: scrubLine },
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
