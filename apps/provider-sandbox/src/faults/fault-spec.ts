/** What a test can ask the sandbox to do wrong. */

/** A sandbox provider's kind (`tripletex`, `fiken`): one listed in `SANDBOX_PROVIDERS`. */
export type ProviderName = string;

export interface RateOrCount {
  /** Probability in [0, 1] that a matching call is hit. */
  rate?: number;
  /** Hit exactly the next N matching calls. */
  next?: number;
}

export interface FaultSpec {
  /** Which sandbox; `all` for every one. */
  provider: ProviderName | 'all';
  /**
   * Narrow to one company: Tripletex company id (as a string) or employee token; Fiken company slug.
   * Calls that cannot be tied to a company (session create without a known token) never match.
   */
  companyId?: string;
  /** Narrow to one HTTP method. */
  method?: string;
  /** Narrow to calls whose URL path contains this string, e.g. `/ledger/voucher` or `/oauth/token`. */
  path?: string;
  /** Extra latency before the call is handled, in ms. */
  latencyMs?: number;
  /** Answer with a 5xx (the provider's error body) instead of handling the call. */
  errorRate?: number;
  errorNext?: number;
  /** Status of injected server errors. Default 500. */
  errorStatus?: number;
  /**
   * Answer 429. `omitRetryHeader` leaves out `X-Rate-Limit-Reset` (Tripletex) / `Retry-After` (Fiken).
   * Unsaid, each sandbox does what its provider does: Tripletex's 429 carries no `X-Rate-Limit-Reset`
   * (`omitRetryHeader: false` adds it), Fiken's carries `Retry-After`.
   */
  rateLimit?: number | (RateOrCount & { omitRetryHeader?: boolean });
  /**
   * Destroy the socket. Before handling by default (nothing happens at the provider); with
   * `afterHandling` the call takes effect and only the response is lost — a booking made but never
   * confirmed, as after a timeout.
   */
  dropConnections?: number | true | (RateOrCount & { afterHandling?: boolean });
  /**
   * Handle matching GET calls but answer them as if nothing matched (an empty list, Tripletex
   * `fullResultSize: 0`): a search that misses a record the provider holds, as a search index lagging
   * behind a commit does. Narrow it with `path` (e.g. `/ledger/voucher`, `/purchases`).
   */
  hideResults?: number | true | RateOrCount;
  /** One-shot: expire every live access/session token in scope now. Refresh tokens stay valid. */
  expireTokens?: boolean;
  /** One-shot (Fiken): invalidate every refresh token in scope, so the next refresh gets `invalid_grant`. */
  revokeRefreshTokens?: boolean;
}

export interface ActiveFault extends FaultSpec {
  id: string;
}
