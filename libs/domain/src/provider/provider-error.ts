import { DomainError, ErrorCode, FieldError } from '../errors/domain-error';
import type { ProviderKind } from './provider-connection';

/**
 * Why a provider call failed. The executor decides with `transient`: retry later, or store
 * `ExecutionFailed` and tell a human.
 *
 * | reason            | code                  | status | transient |
 * |-------------------|-----------------------|--------|-----------|
 * | rejected          | provider_error        | 502    | no        | 4xx: validation, not found, forbidden…
 * | rate_limited      | provider_unavailable  | 503    | yes       | 429 still after the retries
 * | unavailable       | provider_unavailable  | 503    | yes       | 5xx or dropped connections after the retries
 * | circuit_open      | provider_unavailable  | 503    | yes       | the provider's circuit breaker is open
 * | timeout           | provider_timeout      | 504    | yes       | no answer within the call timeout
 * | not_connected     | provider_not_connected| 409    | no        | credentials refused (revoked grant): re-authorise
 * | unknown_account   | unknown_account_code  | 422    | no        | the booking names an account the chart lacks
 * | unknown_vat_rate  | unknown_vat_rate      | 422    | no        | no VAT type with the booking's rate
 */
export type ProviderFailureReason =
  | 'rejected'
  | 'rate_limited'
  | 'unavailable'
  | 'circuit_open'
  | 'timeout'
  | 'not_connected'
  | 'unknown_account'
  | 'unknown_vat_rate';

const CODE_OF: Record<ProviderFailureReason, ErrorCode> = {
  rejected: 'provider_error',
  rate_limited: 'provider_unavailable',
  unavailable: 'provider_unavailable',
  circuit_open: 'provider_unavailable',
  timeout: 'provider_timeout',
  not_connected: 'provider_not_connected',
  unknown_account: 'unknown_account_code',
  unknown_vat_rate: 'unknown_vat_rate',
};

const TRANSIENT: ReadonlySet<ProviderFailureReason> = new Set([
  'rate_limited',
  'unavailable',
  'circuit_open',
  'timeout',
]);

export interface ProviderErrorDetails {
  /** HTTP status of the provider's answer, when there was one. */
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly fieldErrors?: FieldError[];
  /**
   * Set when the booking exists at the provider although the operation failed afterwards (the
   * receipt upload failed): the executor must not book again, only attach the receipt.
   */
  readonly bookingId?: string;
  /**
   * A `rate_limited` failure that did not wait: the company's rate window at the provider stays
   * closed longer than the call accepted to wait (`ProviderCallOptions.maxRateLimitWaitMs`), and
   * the request it failed on was not carried out (not sent, or refused with a 429). It reopens in
   * `retryAfterSeconds`.
   */
  readonly windowClosed?: boolean;
}

/** A failed provider operation, carrying the provider's own message (Norwegian, often). */
export class ProviderError extends DomainError {
  readonly transient: boolean;
  readonly status?: number;
  readonly bookingId?: string;
  readonly windowClosed: boolean;

  constructor(
    readonly provider: ProviderKind,
    readonly reason: ProviderFailureReason,
    message: string,
    details: ProviderErrorDetails = {},
  ) {
    super(CODE_OF[reason], message, details.fieldErrors, details.retryAfterSeconds);
    this.transient = TRANSIENT.has(reason);
    this.status = details.status;
    this.bookingId = details.bookingId;
    this.windowClosed = details.windowClosed === true;
  }

  /** The same failure, remembering that the booking was created before it happened. */
  withBookingId(bookingId: string): ProviderError {
    return new ProviderError(this.provider, this.reason, this.message, {
      status: this.status,
      retryAfterSeconds: this.retryAfterSeconds,
      fieldErrors: this.fieldErrors,
      bookingId,
      windowClosed: this.windowClosed,
    });
  }
}

/**
 * The provider refused the stored credentials for good (Fiken `invalid_grant`, a revoked Tripletex
 * employee token). The connection has been marked as needing re-authorisation; the caller notifies
 * the company's review channel. Maps to `409 provider_not_connected`.
 */
export class ProviderReauthorizationRequired extends ProviderError {
  constructor(provider: ProviderKind, message: string, status?: number) {
    super(provider, 'not_connected', message, { status });
  }
}
