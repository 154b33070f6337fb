import {
  ACCOUNTS_PAYABLE_ACCOUNT,
  purchaseVatCode,
  type PaidWith,
  type PaymentAccounts,
} from '../bookkeeping/bookkeeping';
import { DomainError } from '../errors/domain-error';
import type { AccountRules, ProviderAccount } from '../ports/accounting-provider.port';
import type { ExpenseDetails } from '../proposal/expense-details';
import { invalidField } from '../values/field-errors';
import { vatRateHundredths } from '../values/vat-rate';
import { assertInChart, findAccount, type CompanyContext } from './company-context';

/** A posting the proposal would make breaks a rule the provider keeps for the account. */
export class AccountRuleViolated extends DomainError {
  constructor(reason: string, field: string) {
    super('account_rule_violated', reason, [{ field, message: reason }]);
  }
}

/** An account of the proposal requires a department, and neither the proposal nor its submitter gives one. */
export class DepartmentRequired extends DomainError {
  constructor(accountCode: string, field: string) {
    const reason =
      `account ${accountCode} requires a department: give departmentId, or set a default department ` +
      "on the submitter's employee mapping";
    super('department_required', reason, [{ field: 'departmentId', message: `${reason} (${field})` }]);
  }
}

/** An expense paid in a way whose account the company has not set (the company card's, by default). */
export class PaymentAccountNotConfigured extends DomainError {
  constructor(paidWith: PaidWith) {
    const reason =
      `the company has no payment account for paidWith ${paidWith}: ` +
      `an administrator sets paymentAccounts.${paidWith} in the company settings first`;
    super('payment_account_not_configured', reason, [{ field: 'paidWith', message: reason }]);
  }
}

/** What the chart rules need beyond the proposal: the company's payment accounts. */
export interface BookableOptions {
  readonly paymentAccounts: PaymentAccounts;
  /** Field names to report problems under; corrections on approval name `corrections.…`. */
  readonly fieldPrefix?: string;
}

/**
 * The account an expense or supplier invoice is credited to: the company's payment account for how
 * an expense was paid, accounts payable for a supplier invoice. Refuses a payment method whose
 * account is not configured (`payment_account_not_configured`).
 */
export function creditAccountOf(
  details: Pick<ExpenseDetails, 'kind' | 'paidWith'>,
  paymentAccounts: PaymentAccounts,
): string {
  if (details.kind === 'supplier_invoice') return ACCOUNTS_PAYABLE_ACCOUNT;
  const paidWith = details.paidWith ?? 'bank';
  const account = paymentAccounts[paidWith];
  if (account === null) throw new PaymentAccountNotConfigured(paidWith);
  return account;
}

/**
 * The party a posting on the account can name: a supplier on a supplier invoice's payable, the
 * employee on an out-of-pocket expense's credit; nothing on an expense line.
 */
type PostingSide =
  { readonly side: 'line' } | { readonly side: 'credit'; readonly party: 'supplier' | 'employee' | null };

/**
 * Refuses a proposal the provider would refuse for its chart's rules, before it is stored or
 * approved: for each line's account and the credit account, the account must be active, take the
 * line's VAT code (a VAT-locked account takes only its own; `legalVatCodes` lists the others it
 * allows), need no party the service cannot name (a customer or asset sub-ledger never; a supplier
 * only on a supplier invoice's accounts payable; an employee only on an out-of-pocket expense's
 * credit), no project (the service sets none), and a department only when the proposal has one
 * (`department_required`). Each line's account and rate must be in the chart (`unknown_account_code`,
 * `unknown_vat_rate`); a rate paid abroad without deduction is recorded, not checked. The credit
 * account is checked when the chart has it under that code (a Fiken bank account is a sub-ledger
 * the provider resolves), and a supplier invoice's supplier must not be one whose own sub-ledger
 * is inactive (assertSupplierActive). Reasons name the account and the rule: `account 6300 only
 * takes VAT code 1`.
 */
export function assertBookable(context: CompanyContext, details: ExpenseDetails, options: BookableOptions): void {
  const prefix = options.fieldPrefix ?? '';
  if (details.departmentId !== null && !context.departments.some((d) => d.id === details.departmentId)) {
    invalidField(`${prefix}departmentId`, `department ${details.departmentId} is not one of the company's departments`);
  }
  const single = details.lines.length <= 1;
  details.lines.forEach((line, index) => {
    const accountField = `${prefix}${single ? 'accountCode' : `lines.${index}.accountCode`}`;
    const rateField = `${prefix}${single ? 'vatRate' : `lines.${index}.vatRate`}`;
    assertInChart(
      context,
      {
        accountCode: line.accountCode,
        ...(details.vatTreatment === 'domestic' ? { vatRate: line.vatRate } : {}),
      },
      { accountCode: accountField, vatRate: rateField },
    );
    const vatCode = purchaseVatCode(vatRateHundredths(line.vatRate), details.vatTreatment);
    if (vatCode === null) {
      invalidField(rateField, `the rate ${line.vatRate} % has no VAT code under the treatment ${details.vatTreatment}`);
    }
    const account = findAccount(context, line.accountCode) as ProviderAccount;
    assertPosting(account, vatCode, { side: 'line' }, details, accountField);
  });
  assertSupplierActive(context, details, prefix);
  const credit = creditAccountOf(details, options.paymentAccounts);
  const creditAccount = findAccount(context, credit);
  if (creditAccount) {
    const party =
      details.kind === 'supplier_invoice' ? 'supplier' : details.paidWith === 'employee' ? 'employee' : null;
    const field = `${prefix}${details.kind === 'supplier_invoice' ? 'supplier' : 'paidWith'}`;
    assertPosting(creditAccount, null, { side: 'credit', party }, details, field);
  }
}

/**
 * A supplier invoice from a supplier the provider has marked inactive is refused: Tripletex's
 * inactive supplier (`isInactive`, in the context's inactiveSuppliers), or a supplier whose own
 * sub-ledger the chart marks inactive (Fiken: a deactivated contact). The provider takes no
 * purchase on a deactivated contact, and booking on a closed supplier — or creating a second one
 * beside it — would split the supplier's ledger.
 */
function assertSupplierActive(context: CompanyContext, details: ExpenseDetails, prefix: string): void {
  const organizationNumber = details.kind === 'supplier_invoice' ? details.supplier?.organizationNumber : undefined;
  if (organizationNumber === undefined) return;
  const inactive = context.inactiveSuppliers.find((supplier) => supplier.organizationNumber === organizationNumber);
  if (inactive) {
    throw new AccountRuleViolated(
      `supplier ${organizationNumber} (${inactive.name}) is inactive at the provider; reactivate the supplier`,
      `${prefix}supplier.organizationNumber`,
    );
  }
  const ledger = context.accounts.find(
    (account) => account.supplierOrganizationNumber === organizationNumber && account.rules?.inactive === true,
  );
  if (!ledger) return;
  throw new AccountRuleViolated(
    `supplier ${organizationNumber} is deactivated at the provider: its account ${ledger.code} (${ledger.name}) is inactive in the company's chart; reactivate the supplier`,
    `${prefix}supplier.organizationNumber`,
  );
}

function assertPosting(
  account: ProviderAccount,
  vatCode: string | null,
  side: PostingSide,
  details: Pick<ExpenseDetails, 'departmentId'>,
  field: string,
): void {
  const rules: AccountRules | undefined = account.rules;
  if (!rules) return;
  const code = account.code;
  if (rules.inactive) throw new AccountRuleViolated(`account ${code} is inactive in the company's chart`, field);
  // A credit posting carries no VAT (code 0 at the provider).
  const postedCode = vatCode ?? '0';
  if (rules.lockedVatCode !== null && rules.lockedVatCode !== postedCode) {
    throw new AccountRuleViolated(
      `account ${code} only takes VAT code ${rules.lockedVatCode}, not ${postedCode}`,
      side.side === 'line' ? field.replace(/accountCode$/, 'vatRate') : field,
    );
  }
  if (side.side === 'line' && rules.legalVatCodes !== null && !rules.legalVatCodes.includes(postedCode)) {
    throw new AccountRuleViolated(
      `account ${code} does not take VAT code ${postedCode}; it takes ${rules.legalVatCodes.join(', ') || 'none'}`,
      field.replace(/accountCode$/, 'vatRate'),
    );
  }
  assertLedger(code, rules.ledgerType, side, field);
  if (rules.requiresProject) {
    throw new AccountRuleViolated(
      `account ${code} requires a project, and the service does not set projects on bookings yet: ` +
        'choose another account, or book this one at the provider',
      field,
    );
  }
  if (rules.requiresDepartment && details.departmentId === null) throw new DepartmentRequired(code, field);
}

function assertLedger(code: string, ledgerType: AccountRules['ledgerType'], side: PostingSide, field: string): void {
  switch (ledgerType) {
    case 'general':
      return;
    case 'customer':
    case 'asset':
      throw new AccountRuleViolated(
        `account ${code} is a ${ledgerType} sub-ledger account: a posting on it must name a ${ledgerType}, which an expense cannot give`,
        field,
      );
    case 'supplier':
    case 'employee':
      if (side.side === 'credit' && side.party === ledgerType) return;
      throw new AccountRuleViolated(
        ledgerType === 'supplier'
          ? `account ${code} is a supplier sub-ledger account: only a supplier invoice's payable is posted on it`
          : `account ${code} is an employee sub-ledger account: only an expense paid by an employee is credited to it`,
        field,
      );
  }
}

/**
 * The details with the submitter's default department where they give none (the employee mapping's
 * `defaultDepartmentId`), so an account requiring a department gets the submitter's.
 */
export function withDefaultDepartment<T extends Pick<ExpenseDetails, 'departmentId'>>(
  details: T,
  defaultDepartmentId: string | null | undefined,
): T {
  if (details.departmentId !== null || !defaultDepartmentId) return details;
  return { ...details, departmentId: defaultDepartmentId };
}
