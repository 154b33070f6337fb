import type { Dispatcher } from 'undici';
import { ResilienceOptions } from '../http/resilience';

export interface TripletexConfig {
  /** The application's consumer token (issued by Tripletex to the integrator). Secret. */
  readonly consumerToken: string;
  readonly resilience?: Partial<ResilienceOptions>;
  /** How long a session is trusted after its creation, ms. Default 1 hour (the spec's rule). */
  readonly sessionTtlMs?: number;
  /** A session is renewed this long before it lapses, ms. Default 5 minutes. */
  readonly sessionRenewMarginMs?: number;
  /** Wait after a 429 without `X-Rate-Limit-Reset`, ms. Default 2 000. */
  readonly rateLimitFallbackWaitMs?: number;
  /** `count` of each list page. Default 1 000. */
  readonly pageSize?: number;
  /** How far back `openInvoicePages` looks for unpaid invoices, days. Default 3 650. */
  readonly invoiceHistoryDays?: number;
  /** Days either side of the date hint searched when finding a booking by reference. Default 3. */
  readonly referenceSearchDays?: number;
  /**
   * Pause before looking up a create whose outcome is unknown, ms; doubled before each of the
   * further lookups (three in all: 2 + 4 + 8 s by default, longer than a call's timeout). Default 2 000.
   */
  readonly settleBeforeLookupMs?: number;
  /** The undici dispatcher to send through (tests); by default the process's shared one. */
  readonly dispatcher?: Dispatcher;
}

export interface ResolvedTripletexConfig {
  readonly consumerToken: string;
  readonly sessionTtlMs: number;
  readonly sessionRenewMarginMs: number;
  readonly rateLimitFallbackWaitMs: number;
  readonly pageSize: number;
  readonly invoiceHistoryDays: number;
  readonly referenceSearchDays: number;
  readonly settleBeforeLookupMs: number;
}

export function resolveTripletexConfig(config: TripletexConfig): ResolvedTripletexConfig {
  if (!config.consumerToken) {
    throw new Error('Tripletex consumer token is not configured');
  }
  return {
    consumerToken: config.consumerToken,
    sessionTtlMs: config.sessionTtlMs ?? 3_600_000,
    sessionRenewMarginMs: config.sessionRenewMarginMs ?? 300_000,
    rateLimitFallbackWaitMs: config.rateLimitFallbackWaitMs ?? 2_000,
    pageSize: config.pageSize ?? 1_000,
    invoiceHistoryDays: config.invoiceHistoryDays ?? 3_650,
    referenceSearchDays: config.referenceSearchDays ?? 3,
    settleBeforeLookupMs: config.settleBeforeLookupMs ?? 2_000,
  };
}
