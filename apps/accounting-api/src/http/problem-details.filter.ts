import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { DomainError, type ErrorCode, type FieldError } from '@app/domain';
import { databaseOutage } from '@app/persistence';
import { ERROR_STATUS, ERROR_TYPE_BASE } from './error-codes';

export interface Problem {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  retryAfterSeconds?: number;
}

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'invalid_token',
  403: 'permission_denied',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Seconds a client is told to wait when the database is unavailable (a restart takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Methods that change nothing: their outcome is never in doubt. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one exception filter: every error leaves as application/problem+json with a contract code
 * and the request id. A database that cannot be used (down, restarting, out of connections) is
 * 503 service_unavailable with Retry-After, saying whether a write's outcome is unknown. Unknown
 * failures become 500 internal_error with an error id that is logged alongside the real error; the
 * response never carries a stack trace or a message we did not write.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { id?: string }>();
    const response = http.getResponse<Response>();
    const problem = problemOf(exception, request);
    const { status, title } = ERROR_STATUS[problem.code];
    const body: Record<string, unknown> = {
      type: ERROR_TYPE_BASE + problem.code,
      title,
      status,
      code: problem.code,
      detail: problem.detail,
      instance: request.originalUrl?.split('?')[0] ?? request.url,
      requestId: String(request.id ?? ''),
    };
    if (problem.errors) body.errors = problem.errors;
    if (problem.code === 'service_unavailable') {
      const reason = exception instanceof Error ? exception.message : String(exception);
      this.logger.warn({ requestId: body.requestId, reason }, 'database unavailable: answered 503');
    }
    if (problem.code === 'internal_error') {
      const errorId = randomUUID();
      body.errorId = errorId;
      this.logger.error({ err: exception, errorId, requestId: body.requestId }, 'unhandled error');
    }
    if (problem.retryAfterSeconds !== undefined && !response.getHeader('Retry-After')) {
      response.setHeader('Retry-After', String(problem.retryAfterSeconds));
    }
    // RFC 6750 §3: a 401 names the scheme it wants, and why the token was refused.
    if (status === 401) response.setHeader('WWW-Authenticate', 'Bearer realm="accounting-api", error="invalid_token"');
    if (response.headersSent) return;
    response.status(status).type('application/problem+json').send(JSON.stringify(body));
  }
}

/** What an exception means in the contract's terms: its code and a detail safe to show. */
export function problemOf(exception: unknown, request: Request): Problem {
  if (exception instanceof DomainError) {
    return {
      code: exception.code,
      detail: exception.message,
      errors: exception.fieldErrors,
      retryAfterSeconds: exception.retryAfterSeconds,
    };
  }
  const outage = databaseOutage(exception);
  if (outage !== null) {
    const retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
    if (outage === 'interrupted' && !SAFE_METHODS.has(request.method)) {
      return {
        code: 'service_unavailable',
        detail:
          'the database connection was lost while the request was being handled: it may or may not have been ' +
          'stored; retry it with the same Idempotency-Key, whose replay answers what was stored',
        retryAfterSeconds,
      };
    }
    return {
      code: 'service_unavailable',
      detail: 'the database is unavailable; the request changed nothing; retry after Retry-After seconds',
      retryAfterSeconds,
    };
  }
  if (exception instanceof ThrottlerException) {
    return { code: 'rate_limited', detail: 'too many requests for this company and user; see Retry-After' };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return { code: 'not_found', detail: `no route ${request.method} ${request.path}` };
    const code = STATUS_CODES[status];
    if (code) return { code, detail: safeMessage(exception) };
    if (status < 500) return { code: 'validation_failed', detail: safeMessage(exception) };
    return { code: 'internal_error', detail: 'an unexpected error occurred' };
  }
  // body-parser errors carry `type` and `status`.
  const parserError = exception as { type?: string; status?: number; limit?: number };
  if (parserError?.type === 'entity.too.large') {
    return { code: 'payload_too_large', detail: `the request body exceeds ${parserError.limit} bytes` };
  }
  if (parserError?.type === 'entity.parse.failed') {
    return {
      code: 'validation_failed',
      detail: 'the request body is not valid JSON',
      errors: [{ field: 'body', message: 'malformed JSON' }],
    };
  }
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return { code: 'unsupported_media_type', detail: 'the request body encoding is not supported' };
  }
  if (typeof parserError?.status === 'number' && parserError.status === 400) {
    return { code: 'validation_failed', detail: 'the request body could not be read' };
  }
  return { code: 'internal_error', detail: 'an unexpected error occurred' };
}

function safeMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.join('; ');
  return exception.message;
}
