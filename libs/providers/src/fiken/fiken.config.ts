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
  /** Days either side of the date hint searched when finding a booking by reference. Default 3. */
  readonly referenceSearchDays?: number;
  /** Pause before looking up a create whose outcome is unknown, ms. Default 1 000. */
  readonly settleBeforeLookupMs?: number;
  readonly fetch?: typeof fetch;
}

export interface ResolvedFikenConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshMarginMs: number;
  readonly pageSize: number;
  readonly referenceSearchDays: number;
  readonly settleBeforeLookupMs: number;
}

export function resolveFikenConfig(config: FikenConfig): ResolvedFikenConfig {
  if (!config.clientId || !config.clientSecret) {
    throw new Error('Fiken OAuth client id and secret are not configured');
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
    referenceSearchDays: config.referenceSearchDays ?? 3,
    settleBeforeLookupMs: config.settleBeforeLookupMs ?? 1_000,
  };
}
