import { tripletexEmployeeToken } from '../constants';
import { faultMatchesScope } from '../faults/fault-registry';
import type { SandboxProviderControl } from '../sandbox-provider';
import type { TxVoucher } from './tripletex-model';
import type { TripletexState } from './tripletex-state';

export interface TripletexCompanyInfo {
  index: number;
  companyId: number;
  name: string;
  organizationNumber: string;
  employeeToken: string;
}

/** The tests' handle on the Tripletex sandbox's data: `sandbox.control.for('tripletex')`. */
export interface TripletexControl extends SandboxProviderControl<TxVoucher, TripletexCompanyInfo> {
  /** A company is known by its index, its company id or its employee token. */
  bookings(company: string | number): TxVoucher[];
  employeeToken(index: number): string;
  /** Takes a privilege (e.g. `AUTH_ADVANCED_VOUCHER`) from the company's employee token, until `reset`. */
  withholdEntitlement(index: number, name: string): void;
}

export function tripletexControl(state: TripletexState): TripletexControl {
  const info = (index: number): TripletexCompanyInfo => {
    const company = state.company(index);
    return {
      index,
      companyId: company.id,
      name: company.name,
      organizationNumber: company.organizationNumber,
      employeeToken: company.employeeToken,
    };
  };
  const indexOf = (key: string | number): number => {
    if (typeof key === 'number') return key;
    const company = state.companyByKey(key);
    if (!company) throw new Error(`Unknown Tripletex sandbox company ${key}`);
    return company.index;
  };
  return {
    companies: () => Array.from({ length: state.companyCount }, (_, i) => info(i)),
    company: info,
    bookings: (company) => [...state.bookingsOf(indexOf(company))],
    expireTokens: (scope) =>
      state.expireSessions((session) => {
        const company = state.company(session.companyIndex);
        return faultMatchesScope(scope, 'tripletex', [String(company.id), company.employeeToken]);
      }),
    // The employee token is the company's credential: what the consent page hands out.
    issueTokens: (company) => ({ employeeToken: info(indexOf(company)).employeeToken }),
    employeeToken: tripletexEmployeeToken,
    withholdEntitlement: (index, name) => state.withholdEntitlement(index, name),
    reset: () => state.reset(),
  };
}
