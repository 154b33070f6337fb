import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { DomainError, ValidationFailed } from '@app/domain';
import { AppConfig } from '../config/app-config';

/** How deep objects and arrays may nest in a JSON body: the deepest the contract uses is 3. */
const MAX_JSON_DEPTH = 32;

/** Keys that name JavaScript's prototype machinery: never a field of the contract. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** C0 controls and DEL, except tab, line feed and carriage return, which free text may hold. */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/**
 * A UTF-16 surrogate standing alone (not half of a pair): ill-formed text, which no field can hold
 * and PostgreSQL refuses in a JSON document. With the `u` flag a well-formed pair is one code point
 * and does not match.
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
/** In a path segment or a query value no control character has a use. */
const CONTROL_IN_URL = /[\u0000-\u001f\u007f]/;

const LARGE_BODY = 'accounting-api:large-body';

/**
 * The route takes the large body limit (BODY_LIMIT_BYTES): the proposal submission, which carries a
 * receipt of up to 7 MiB in base64. Every other route takes SMALL_BODY_LIMIT_BYTES.
 */
export const LargeBody = () => SetMetadata(LARGE_BODY, true);

/**
 * `Content-Encoding` other than identity is refused (415) before a byte of the body is read: the
 * service never inflates what a client compressed, so a few bytes cannot become megabytes.
 */
export function refuseEncodedBodies(request: Request, _response: Response, next: NextFunction): void {
  const encoding = request.header('content-encoding')?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    next(new DomainError('unsupported_media_type', 'request bodies must not be compressed (Content-Encoding)'));
    return;
  }
  next();
}

/**
 * Path segments and query values with a control character (NUL included) are refused (400), as is
 * a malformed percent-encoding, before a route sees them.
 */
export function refuseControlCharactersInUrl(request: Request, _response: Response, next: NextFunction): void {
  for (const segment of request.path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      next(
        new ValidationFailed('the path is not well-formed percent-encoding', [{ field: 'path', message: 'malformed' }]),
      );
      return;
    }
    if (CONTROL_IN_URL.test(decoded)) {
      next(
        new ValidationFailed('the path holds a control character', [{ field: 'path', message: 'control character' }]),
      );
      return;
    }
  }
  for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
    const values = Array.isArray(value) ? value : [value];
    if (CONTROL_IN_URL.test(name) || values.some((v) => typeof v === 'string' && CONTROL_IN_URL.test(v))) {
      next(
        new ValidationFailed(`the query parameter ${JSON.stringify(name)} holds a control character`, [
          { field: name, message: `${name} must not hold a control character` },
        ]),
      );
      return;
    }
  }
  next();
}

/**
 * How deep the JSON text nests, counted on the raw bytes before it is parsed (brackets inside
 * strings do not count), so that a deeply nested body is never built. Throws past `max`.
 */
function assertJsonDepth(body: Buffer, max: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: skip the escaped character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > max) {
        throw new ValidationFailed(`the request body nests deeper than ${max} levels`, [
          { field: 'body', message: `nests deeper than ${max} levels` },
        ]);
      }
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--;
    }
  }
}

/**
 * Refuses prototype keys, control characters and ill-formed Unicode (a lone surrogate) anywhere in
 * a parsed body, every problem listed. Iterative, so that no body can exhaust the stack.
 */
function assertCleanJson(value: unknown): void {
  const errors: Array<{ field: string; message: string }> = [];
  const pending: Array<[string, unknown]> = [['', value]];
  while (pending.length > 0 && errors.length < 20) {
    const [path, current] = pending.pop()!;
    if (typeof current === 'string') {
      if (CONTROL_IN_TEXT.test(current)) {
        errors.push({ field: path || 'body', message: `${path || 'body'} must not hold a control character` });
      } else if (LONE_SURROGATE.test(current)) {
        errors.push({
          field: path || 'body',
          message: `${path || 'body'} must be well-formed Unicode text (it holds a lone UTF-16 surrogate)`,
        });
      }
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push([`${path}[${index}]`, item]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        // A key's surrogate is shown as U+FFFD, so that the answer names the field in well-formed text.
        const field = (path ? `${path}.${key}` : key).replace(/[\ud800-\udfff]/gu, '\ufffd');
        if (FORBIDDEN_KEYS.has(key) || CONTROL_IN_TEXT.test(key)) {
          errors.push({ field, message: `${field} is not an allowed field` });
        } else if (LONE_SURROGATE.test(key)) {
          errors.push({ field, message: `${field} is not an allowed field: keys must be well-formed Unicode text` });
        } else {
          pending.push([field, item]);
        }
      }
    }
  }
  if (errors.length > 0) throw new ValidationFailed(errors.map((e) => e.message).join('; '), errors);
}

function jsonParser(limit: number): RequestHandler {
  return json({
    limit,
    inflate: false,
    type: ['application/json', 'application/*+json'],
    verify: (_request, _response, body) => assertJsonDepth(body, MAX_JSON_DEPTH),
  });
}

/**
 * Reads and parses the JSON body only once the guards before it have let the request through, so
 * that a request without a valid token (or over its rate limit) is answered without its body being
 * read, let alone parsed. Each route has its limit (see LargeBody); a declared length over it is
 * refused at once, without waiting for the body.
 *
 * A guard, bound last (app.module.ts), rather than an interceptor: it acts only before the handler,
 * and with no interceptor bound Nest calls the handler without its interceptor pipeline (an rxjs
 * chain per request, ~5 % of a whoami's CPU).
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  private readonly small: { limit: number; parse: RequestHandler };
  private readonly large: { limit: number; parse: RequestHandler };

  constructor(
    private readonly reflector: Reflector,
    config: AppConfig,
  ) {
    this.small = { limit: config.smallBodyLimitBytes, parse: jsonParser(config.smallBodyLimitBytes) };
    this.large = { limit: config.bodyLimitBytes, parse: jsonParser(config.bodyLimitBytes) };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const large = this.reflector.getAllAndOverride<boolean | undefined>(LARGE_BODY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const { limit, parse } = large ? this.large : this.small;
    const declared = Number(request.header('content-length') ?? 0);
    if (declared > limit) {
      throw new DomainError('payload_too_large', `the request body exceeds ${limit} bytes`);
    }
    await new Promise<void>((resolve, reject) =>
      parse(request, response, (error?: unknown) => (error ? reject(error) : resolve())),
    );
    if (request.body !== undefined) assertCleanJson(request.body);
    return true;
  }
}

/**
 * A route that declares no query (no `@Query()` parameter) takes none: any query parameter is
 * refused (400), as an unknown field of a body is. Routes that declare one validate it with their
 * DTO (unknown parameters refused, numbers bounded). A guard, as JsonBodyGuard is.
 */
@Injectable()
export class UndeclaredQueryGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const names = Object.keys(context.switchToHttp().getRequest<Request>().query as object);
    if (names.length > 0 && !declaresQuery(context)) {
      throw new ValidationFailed(
        'this operation takes no query parameters',
        names.slice(0, 20).map((name) => ({ field: name, message: `${name} is not an allowed query parameter` })),
      );
    }
    return true;
  }
}

function declaresQuery(context: ExecutionContext): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), context.getHandler().name) ??
    {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.QUERY));
}
