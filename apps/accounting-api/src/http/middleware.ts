import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '@app/domain';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (the caller's X-Request-Id when it is sane), echoed in the response. */
export function requestId(request: Request & { id?: string }, response: Response, next: NextFunction): void {
  const given = request.header('x-request-id');
  request.id = given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  response.setHeader('X-Request-Id', request.id);
  next();
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

/**
 * A body on a JSON endpoint must be JSON: anything else is 415 before it is read. The web console's
 * forms (and the Tripletex token form of the OAuth callback) post urlencoded forms instead.
 */
export function requireJsonBodies(request: Request, _response: Response, next: NextFunction): void {
  const hasBody =
    Number(request.header('content-length') ?? 0) > 0 || request.header('transfer-encoding') !== undefined;
  const type = request.header('content-type') ?? '';
  const form = request.path.startsWith('/v1/oauth/') || (request.path.startsWith('/console/') && FORM_TYPE.test(type));
  if (hasBody && !form && !JSON_TYPE.test(type)) {
    next(new DomainError('unsupported_media_type', 'request bodies must be application/json'));
    return;
  }
  next();
}
