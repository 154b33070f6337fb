import { ErrorDescription } from '../http/provider-http';
import { asObject, asString } from '../shared/json';

/** Fiken has no documented error schema: `message`, then `error_description`, then `error`. */
export function describeFikenError(status: number, body: unknown): ErrorDescription {
  const error = asObject(body);
  const message =
    asString(error.message) ||
    asString(error.error_description) ||
    asString(error.error) ||
    (typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 300) : `HTTP ${status}`);
  const code = asString(error.error);
  return { message, ...(code ? { code } : {}) };
}
