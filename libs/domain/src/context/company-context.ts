import { DomainError } from '../errors/domain-error';
import type {
  ProviderAccount,
  ProviderDepartment,
  ProviderEmployee,
  ProviderInactiveSupplier,
  ProviderVatType,
  ProviderVoucherType,
} from '../ports/accounting-provider.port';
import type { ProviderKind } from '../provider/provider-connection';
import { sameVatRate } from '../values/vat-rate';

/**
 * The company's chart as last fetched from its provider (spec §2.5: accounts, departments, VAT
 * types; employees too, for the employee mapping). Proposals and corrections are checked against it.
 */
export interface CompanyContext {
  readonly companyId: string;
  readonly provider: ProviderKind;
  readonly accounts: readonly ProviderAccount[];
  readonly departments: readonly ProviderDepartment[];
  readonly vatTypes: readonly ProviderVatType[];
  readonly employees: readonly ProviderEmployee[];
  /** The company's voucher types (Tripletex's; empty for Fiken and for a context cached before they were read). */
  readonly voucherTypes: readonly ProviderVoucherType[];
  /**
   * Suppliers the provider marked inactive (Tripletex's; empty for Fiken, whose deactivated contacts
   * are inactive sub-ledgers in `accounts`, and for a context cached before they were read).
   */
  readonly inactiveSuppliers: readonly ProviderInactiveSupplier[];
  readonly fetchedAt: Date;
}

/** A proposal or correction names an account the company's chart does not have. */
export class UnknownAccountCode extends DomainError {
  constructor(code: string, field = 'accountCode') {
    super('unknown_account_code', `account ${code} is not in the company's chart of accounts`, [
      { field, message: `account ${code} is not in the company's chart of accounts` },
    ]);
  }
}

/** A proposal or correction names a VAT rate none of the company's VAT types has. */
export class UnknownVatRate extends DomainError {
  constructor(rate: string, field = 'vatRate') {
    super('unknown_vat_rate', `no VAT type of the company has the rate ${rate} %`, [
      { field, message: `no VAT type of the company has the rate ${rate} %` },
    ]);
  }
}

/** The account with this code (`"6540"`); a Fiken sub-ledger (`"2400:10001"`) matches only exactly. */
export function findAccount(context: CompanyContext, code: string): ProviderAccount | undefined {
  return context.accounts.find((account) => account.code === code);
}

/** The VAT types with this rate, whatever its spelling (`"25"`, `"25.00"`). */
export function vatTypesWithRate(context: CompanyContext, rate: string): ProviderVatType[] {
  return context.vatTypes.filter((vatType) => sameVatRate(vatType.ratePercent, rate));
}

/**
 * Refuses an account code or VAT rate absent from the chart (docs/api.md §3: 422
 * `unknown_account_code` / `unknown_vat_rate`). Either may be left out (a correction of one field).
 */
export function assertInChart(
  context: CompanyContext,
  values: { accountCode?: string; vatRate?: string },
  fields: { accountCode?: string; vatRate?: string } = {},
): void {
  if (values.accountCode !== undefined && !findAccount(context, values.accountCode)) {
    throw new UnknownAccountCode(values.accountCode, fields.accountCode);
  }
  if (values.vatRate !== undefined && vatTypesWithRate(context, values.vatRate).length === 0) {
    throw new UnknownVatRate(values.vatRate, fields.vatRate);
  }
}
