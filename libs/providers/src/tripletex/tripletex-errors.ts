import { FieldError } from '@app/domain';
import { ErrorDescription } from '../http/provider-http';
import { asArray, asObject, asString } from '../shared/json';

/**
 * Tripletex error bodies: `{status, code, message, developerMessage, validationMessages:
 * [{field, message, path, rootId}], requestId}`. The message is kept as Tripletex wrote it.
 */
export function describeTripletexError(status: number, body: unknown): ErrorDescription {
  const error = asObject(body);
  const fieldErrors: FieldError[] = asArray(error.validationMessages).map((entry) => {
    const item = asObject(entry);
    return { field: asString(item.field) || asString(item.path), message: asString(item.message) };
  });
  const base =
    asString(error.message) ||
    asString(error.developerMessage) ||
    (typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 300) : `HTTP ${status}`);
  const details = fieldErrors
    .filter((f) => f.message !== '')
    .map((f) => (f.field ? `${f.field}: ${f.message}` : f.message));
  const code = asString(error.code);
  const message = [base, ...details].join('; ') + (code ? ` (code ${code})` : '');
  return { message, fieldErrors: fieldErrors.length > 0 ? fieldErrors : undefined };
}
