import { randomUUID } from 'node:crypto';
import type { Response } from 'express';

export interface ValidationMessage {
  field: string | null;
  message: string;
  path?: string | null;
  rootId?: number | null;
}

/** Tripletex's error envelope, with the request id also in `x-tlx-request-id`. */
export function sendTripletexError(
  res: Response,
  status: number,
  code: number,
  message: string,
  developerMessage: string | null = null,
  validationMessages: ValidationMessage[] | null = null,
): void {
  const requestId = randomUUID();
  res
    .status(status)
    .set('x-tlx-request-id', requestId)
    .json({
      status,
      code,
      message,
      link: 'https://tripletex.no/v2-docs/',
      developerMessage,
      validationMessages:
        validationMessages?.map((m) => ({
          field: m.field,
          message: m.message,
          path: m.path ?? null,
          rootId: m.rootId ?? null,
        })) ?? null,
      requestId,
    });
}

export function sendUnauthorized(res: Response, developerMessage: string): void {
  sendTripletexError(res, 401, 3000, 'Ugyldig eller utløpt sesjonstoken. Logg inn på nytt.', developerMessage);
}

export function sendNotFound(res: Response, what: string): void {
  sendTripletexError(res, 404, 6000, 'Objektet finnes ikke.', `${what} not found`);
}

export function sendValidation(res: Response, message: string, validationMessages: ValidationMessage[]): void {
  sendTripletexError(res, 422, 18000, message, 'Validation failed', validationMessages);
}

export function sendParamError(res: Response, field: string, message: string): void {
  sendTripletexError(res, 422, 21000, message, `Illegal value of query parameter '${field}'`, [{ field, message }]);
}
