import { FieldError, ProviderError, ProviderFailureReason, ProviderKind } from '@app/domain';

export interface TransportErrorDetails {
  readonly status?: number;
  readonly fieldErrors?: FieldError[];
  /**
   * True when the provider may have carried out the request although no success came back
   * (timeout, dropped connection, 5xx): a create must then be looked up before it is sent again.
   */
  readonly outcomeUnknown: boolean;
  /** The provider asked us to wait this long (429 `Retry-After`, `X-Rate-Limit-Reset`). */
  readonly retryAfterMs?: number;
  /** The provider's machine-readable error code, e.g. OAuth's `invalid_grant`. */
  readonly providerCode?: string;
  /** The company's rate window stays closed longer than the call would wait: not retried here. */
  readonly windowClosed?: boolean;
}

/** A `ProviderError` raised by one HTTP attempt, with what the retry and circuit policies need. */
export class TransportError extends ProviderError {
  readonly outcomeUnknown: boolean;
  readonly retryAfterMs?: number;
  readonly providerCode?: string;

  constructor(provider: ProviderKind, reason: ProviderFailureReason, message: string, details: TransportErrorDetails) {
    super(provider, reason, message, {
      status: details.status,
      fieldErrors: details.fieldErrors,
      retryAfterSeconds:
        details.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(details.retryAfterMs / 1000)),
      windowClosed: details.windowClosed,
    });
    this.outcomeUnknown = details.outcomeUnknown;
    this.retryAfterMs = details.retryAfterMs;
    this.providerCode = details.providerCode;
  }

  /** Server-side trouble that should open the circuit when it repeats (not 4xx, not 429). */
  get countsAgainstCircuit(): boolean {
    return this.reason === 'unavailable' || this.reason === 'timeout';
  }
}

/**
 * The company's rate window at the provider reopens in `retryAfterMs`, later than the call accepts
 * to wait (`maxRateLimitWaitMs`): the request was not sent, or was refused with a 429 (nothing
 * done). Not retried by the resilience policy; the caller tries again when the window reopens.
 */
export function windowClosedError(provider: ProviderKind, retryAfterMs: number, status?: number): TransportError {
  return new TransportError(
    provider,
    'rate_limited',
    `${provider}'s rate window for this company reopens in ${Math.ceil(retryAfterMs / 1000)} s: not waited`,
    { status, outcomeUnknown: false, retryAfterMs, windowClosed: true },
  );
}

/** Whether a failure means the provider refused our credentials (re-authenticate once). */
export function isUnauthorized(error: unknown): error is TransportError {
  return error instanceof TransportError && error.status === 401;
}
