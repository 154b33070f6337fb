import { SANDBOX_FIKEN_CLIENT_ID } from '../constants';
import { faultMatchesScope } from '../faults/fault-registry';
import type { FaultSpec } from '../faults/fault-spec';
import type { SandboxProviderControl } from '../sandbox-provider';
import type { FikenPurchase } from './fiken-model';
import type { FikenState, FikenTraffic, IssuedTokens } from './fiken-state';

export interface FikenCompanyInfo {
  index: number;
  slug: string;
  name: string;
  organizationNumber: string;
}

/** The tests' handle on the Fiken sandbox's data: `sandbox.control.for('fiken')`. */
export interface FikenControl extends SandboxProviderControl<FikenPurchase, FikenCompanyInfo> {
  /** A company is known by its index or its slug. */
  bookings(company: string | number): FikenPurchase[];
  /** Issues tokens for a company without the browser step (for benchmarks and bulk setup). */
  issueTokens(company: string | number, clientId?: string): IssuedTokens;
  revokeRefreshTokens(scope: FaultSpec): number;
  /**
   * The API's one-request rule as seen since the last reset: requests let in, most in flight at once,
   * 429s for concurrency, the shortest gap between two request starts (ms).
   */
  traffic(): FikenTraffic;
}

export function fikenControl(state: FikenState): FikenControl {
  const info = (index: number): FikenCompanyInfo => {
    const company = state.company(index);
    return { index, slug: company.slug, name: company.name, organizationNumber: company.organizationNumber };
  };
  const indexOf = (key: string | number): number => {
    if (typeof key === 'number') return key;
    const company = state.companyBySlug(key);
    if (!company) throw new Error(`Unknown Fiken sandbox company ${key}`);
    return company.index;
  };
  const inScope = (scope: FaultSpec, companyIndex: number): boolean =>
    faultMatchesScope(scope, 'fiken', [state.company(companyIndex).slug]);
  return {
    companies: () => Array.from({ length: state.companyCount }, (_, i) => info(i)),
    company: info,
    bookings: (company) => [...state.purchasesOf(indexOf(company))],
    expireTokens: (scope) => state.expireAccessTokens((grant) => inScope(scope, grant.companyIndex)),
    revokeRefreshTokens: (scope) => state.invalidateRefreshTokens((grant) => inScope(scope, grant.companyIndex)),
    issueTokens: (company, clientId = SANDBOX_FIKEN_CLIENT_ID) => state.issueGrant(clientId, indexOf(company)),
    traffic: () => state.fikenTraffic(),
    reset: () => state.reset(),
  };
}
