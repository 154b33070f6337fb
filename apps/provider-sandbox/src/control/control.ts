import { SANDBOX_FIKEN_CLIENT_ID, tripletexEmployeeToken } from '../constants';
import { faultMatchesScope, type FaultRegistry } from '../faults/fault-registry';
import type { ActiveFault, FaultSpec, ProviderName } from '../faults/fault-spec';
import type { FikenPurchase } from '../fiken/fiken-model';
import type { FikenState, FikenTraffic, IssuedTokens } from '../fiken/fiken-state';
import type { TxVoucher } from '../tripletex/tripletex-model';
import type { TripletexState } from '../tripletex/tripletex-state';
import type { CallFilter, CallLog, CallRecord } from './call-log';

export interface TripletexCompanyInfo {
  index: number;
  companyId: number;
  name: string;
  organizationNumber: string;
  employeeToken: string;
}

export interface FikenCompanyInfo {
  index: number;
  slug: string;
  name: string;
  organizationNumber: string;
}

/** A booking made through the API, in the shape the provider stores it (amounts in øre). */
export type Booking = { provider: 'tripletex'; voucher: TxVoucher } | { provider: 'fiken'; purchase: FikenPurchase };

/** Test-side control of the sandboxes: faults, counters, bookings, seeded identities and resets. */
export interface SandboxControl {
  /** Adds a fault (or performs a one-shot action such as `expireTokens`). */
  addFault(spec: FaultSpec): ActiveFault;
  removeFault(id: string): boolean;
  faults(): ActiveFault[];
  clearFaults(): void;
  /** Expires live session/access tokens now (Tripletex sessions, Fiken access tokens). Returns how many. */
  expireTokens(provider: ProviderName | 'all', companyId?: string): number;
  /** Fiken: makes every refresh token in scope unusable (the next refresh gets `invalid_grant`). */
  revokeRefreshTokens(companyId?: string): number;
  /** Calls recorded so far, optionally filtered. */
  calls(filter?: CallFilter): CallRecord[];
  /** Number of calls per `provider METHOD route` since the last reset. */
  callCounts(): Record<string, number>;
  /** Bookings made through the API for a company (Tripletex company id, index or employee token; Fiken slug or index). */
  bookings(provider: 'tripletex', company: string | number): TxVoucher[];
  bookings(provider: 'fiken', company: string | number): FikenPurchase[];
  bookings(provider: ProviderName, company: string | number): TxVoucher[] | FikenPurchase[];
  tripletex: {
    companies(): TripletexCompanyInfo[];
    company(index: number): TripletexCompanyInfo;
    employeeToken(index: number): string;
    /** Takes a privilege (e.g. `AUTH_ADVANCED_VOUCHER`) from the company's employee token, until `reset`. */
    withholdEntitlement(index: number, name: string): void;
  };
  fiken: {
    companies(): FikenCompanyInfo[];
    company(index: number): FikenCompanyInfo;
    /** Issues tokens for a company without the browser step (for benchmarks and bulk setup). */
    issueTokens(company: string | number, clientId?: string): IssuedTokens;
    /**
     * The API's one-request rule as seen since the last reset: requests let in, most in flight at once,
     * 429s for concurrency, the shortest gap between two request starts (ms).
     */
    traffic(): FikenTraffic;
  };
  /** Back to the seeded state: no faults, tokens, bookings, uploads, counters or rate windows. */
  reset(): void;
}

export function createControl(
  tripletex: TripletexState,
  fiken: FikenState,
  faults: FaultRegistry,
  log: CallLog,
): SandboxControl {
  const tripletexInfo = (index: number): TripletexCompanyInfo => {
    const company = tripletex.company(index);
    return {
      index,
      companyId: company.id,
      name: company.name,
      organizationNumber: company.organizationNumber,
      employeeToken: company.employeeToken,
    };
  };
  const fikenInfo = (index: number): FikenCompanyInfo => {
    const company = fiken.company(index);
    return { index, slug: company.slug, name: company.name, organizationNumber: company.organizationNumber };
  };
  const tripletexIndex = (key: string | number): number => {
    if (typeof key === 'number') return key;
    const company = tripletex.companyByKey(key);
    if (!company) throw new Error(`Unknown Tripletex sandbox company ${key}`);
    return company.index;
  };
  const fikenIndex = (key: string | number): number => {
    if (typeof key === 'number') return key;
    const company = fiken.companyBySlug(key);
    if (!company) throw new Error(`Unknown Fiken sandbox company ${key}`);
    return company.index;
  };

  const expireTokens = (provider: ProviderName | 'all', companyId?: string): number => {
    const scope: FaultSpec = { provider, companyId };
    let expired = 0;
    expired += tripletex.expireSessions((session) => {
      const company = tripletex.company(session.companyIndex);
      return faultMatchesScope(scope, 'tripletex', [String(company.id), company.employeeToken]);
    });
    expired += fiken.expireAccessTokens((grant) =>
      faultMatchesScope(scope, 'fiken', [fiken.company(grant.companyIndex).slug]),
    );
    return expired;
  };
  const revokeRefreshTokens = (companyId?: string): number =>
    fiken.invalidateRefreshTokens((grant) =>
      faultMatchesScope({ provider: 'fiken', companyId }, 'fiken', [fiken.company(grant.companyIndex).slug]),
    );

  function bookings(provider: 'tripletex', company: string | number): TxVoucher[];
  function bookings(provider: 'fiken', company: string | number): FikenPurchase[];
  function bookings(provider: ProviderName, company: string | number): TxVoucher[] | FikenPurchase[];
  function bookings(provider: ProviderName, company: string | number): TxVoucher[] | FikenPurchase[] {
    return provider === 'tripletex'
      ? [...tripletex.bookingsOf(tripletexIndex(company))]
      : [...fiken.purchasesOf(fikenIndex(company))];
  }

  return {
    addFault(spec) {
      if (spec.expireTokens) expireTokens(spec.provider, spec.companyId);
      if (spec.revokeRefreshTokens) revokeRefreshTokens(spec.companyId);
      return faults.add(spec);
    },
    removeFault: (id) => faults.remove(id),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    expireTokens,
    revokeRefreshTokens,
    calls: (filter) => log.list(filter),
    callCounts: () => log.counts(),
    bookings,
    tripletex: {
      companies: () => Array.from({ length: tripletex.companyCount }, (_, i) => tripletexInfo(i)),
      company: tripletexInfo,
      employeeToken: tripletexEmployeeToken,
      withholdEntitlement: (index, name) => tripletex.withholdEntitlement(index, name),
    },
    fiken: {
      companies: () => Array.from({ length: fiken.companyCount }, (_, i) => fikenInfo(i)),
      company: fikenInfo,
      issueTokens: (company, clientId = SANDBOX_FIKEN_CLIENT_ID) => fiken.issueGrant(clientId, fikenIndex(company)),
      traffic: () => fiken.fikenTraffic(),
    },
    reset() {
      faults.clear();
      log.clear();
      tripletex.reset();
      fiken.reset();
    },
  };
}
