/**
 * Stable error codes of the public contract (docs/api.md §3). Domain and adapter code throws
 * DomainError subclasses carrying one of these; the HTTP layer maps code → status in one table.
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_token',
  'token_expired',
  'unknown_company',
  'permission_denied',
  'role_insufficient',
  'not_found',
  'invalid_transition',
  'idempotency_conflict',
  'provider_not_connected',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unknown_account_code',
  'unknown_vat_rate',
  'account_rule_violated',
  'department_required',
  'payment_account_not_configured',
  'nok_amount_required',
  'vat_treatment_required',
  'vat_treatment_not_applicable',
  'employee_not_mapped',
  'provider_error',
  'provider_unavailable',
  'provider_timeout',
  'service_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldError[],
    /** Seconds a client should wait before retrying, when known (503, 429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFound extends DomainError {
  constructor(what: string, id: string) {
    super('not_found', `${what} ${id} was not found`);
  }
}

export class InvalidTransition extends DomainError {
  constructor(message: string) {
    super('invalid_transition', message);
  }
}

export class PermissionDenied extends DomainError {
  constructor(message: string) {
    super('permission_denied', message);
  }
}

export class ValidationFailed extends DomainError {
  constructor(message: string, fieldErrors: FieldError[] = []) {
    super('validation_failed', message, fieldErrors);
  }
}
