import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';

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
      // Never log bodies or query strings: they may hold receipts, and query strings may hold codes.
      serializers: {
        req: (req: { id?: string; method?: string; url?: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url?.split('?')[0],
        }),
      },
      customLogLevel: (_request, response, error) =>
        error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
      autoLogging: { ignore: (request) => request.url === '/health' || request.url === '/metrics' },
    },
  };
}
