import type { Dispatcher } from 'undici';
import { ResilienceOptions } from '../http/resilience';

export interface FikenConfig {
  /** The OAuth client registered with Fiken (HTTP Basic client auth at the token endpoint). */
  readonly clientId: string;
  /** Secret. */
  readonly clientSecret: string;
  readonly resilience?: Partial<ResilienceOptions>;
  /** An access token is refreshed this long before `expires_in` runs out, ms. Default 60 s. */
  readonly refreshMarginMs?: number;
  /** `pageSize` of each list page (Fiken's maximum is 100). Default 100. */
  readonly pageSize?: number;
  /**
   * Requests in flight at once to Fiken's API from this adapter, across every company. Fiken
   * allows "a single concurrent API-request" per application. Default 1.
   */
  readonly maxConcurrentRequests?: number;
  /**
   * At least this long between the starts of two Fiken API requests, ms (across instances when the
   * slot is shared). Fiken slows clients above 4 requests per second. Default 250.
   */
  readonly requestPaceMs?: number;
  /**
   * Pause before looking up a create whose outcome is unknown, ms; doubled before each of the
   * further lookups (three in all: 2 + 4 + 8 s by default, longer than a call's timeout). Default 2 000.
   */
  readonly settleBeforeLookupMs?: number;
  /** The undici dispatcher to send through (tests); by default the process's shared one. */
  readonly dispatcher?: Dispatcher;
}

export interface ResolvedFikenConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshMarginMs: number;
  readonly pageSize: number;
  readonly maxConcurrentRequests: number;
  readonly requestPaceMs: number;
  readonly settleBeforeLookupMs: number;
}

export function resolveFikenConfig(config: FikenConfig): ResolvedFikenConfig {
  if (!config.clientId || !config.clientSecret) {
    throw new Error('Fiken OAuth client id and secret are not configured');
  }
  if (config.clientId.includes(':')) {
    // HTTP Basic cannot carry it: the client id ends at the first colon.
    throw new Error('a Fiken OAuth client id cannot contain ":"');
  }
  const maxConcurrentRequests = config.maxConcurrentRequests ?? 1;
  if (!Number.isInteger(maxConcurrentRequests) || maxConcurrentRequests < 1) {
    throw new RangeError('Fiken maxConcurrentRequests must be an integer ≥ 1');
  }
  const requestPaceMs = config.requestPaceMs ?? 250;
  if (!Number.isInteger(requestPaceMs) || requestPaceMs < 0) {
    throw new RangeError('Fiken requestPaceMs must be an integer ≥ 0');
  }
  const pageSize = config.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
    throw new RangeError('Fiken pageSize must be an integer between 1 and 100');
  }
  return {
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    refreshMarginMs: config.refreshMarginMs ?? 60_000,
    pageSize,
    maxConcurrentRequests,
    requestPaceMs,
    settleBeforeLookupMs: config.settleBeforeLookupMs ?? 2_000,
  };
}
