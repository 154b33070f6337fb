import type { PaymentAccounts } from '../bookkeeping/bookkeeping';
import { DomainError } from '../errors/domain-error';
import type { AccountRules, ProviderAccount } from '../ports/accounting-provider.port';
import { withExpenseDefaults, type ExpenseDetails } from '../proposal/expense-details';
import { assertBookable, creditAccountOf, withDefaultDepartment } from './bookable';
import type { CompanyContext } from './company-context';

const GENERAL: AccountRules = {
  lockedVatCode: null,
  legalVatCodes: null,
  ledgerType: 'general',
  requiresDepartment: false,
  requiresProject: false,
  inactive: false,
};

const account = (code: string, rules: Partial<AccountRules> | null = {}): ProviderAccount => ({
  code,
  name: `Account ${code}`,
  ...(rules !== null && { rules: { ...GENERAL, ...rules } }),
});

function aContext(accounts: ProviderAccount[]): CompanyContext {
  return {
    companyId: 'c1',
    provider: 'tripletex',
    accounts: [
      account('1920', { lockedVatCode: '0' }),
      account('2400', { ledgerType: 'supplier', lockedVatCode: '0' }),
      account('2910', { ledgerType: 'employee' }),
      ...accounts,
    ],
    departments: [{ id: '7', name: 'Salg', number: '20' }],
    vatTypes: [
      { id: '1', code: '1', name: 'Inngående, høy sats', ratePercent: '25', standardCode: '1' },
      { id: '11', code: '11', name: 'Inngående, middels sats', ratePercent: '15', standardCode: '11' },
      { id: '0', code: '0', name: 'Ingen', ratePercent: '0', standardCode: '0' },
    ],
    employees: [],
    voucherTypes: [],
    inactiveSuppliers: [],
    fetchedAt: new Date('2026-11-01T00:00:00Z'),
  };
}

const PAYMENT_ACCOUNTS: PaymentAccounts = { bank: '1920', company_card: '1930', employee: '2910' };

function anExpense(overrides: Partial<ExpenseDetails> = {}): ExpenseDetails {
  return withExpenseDefaults({
    kind: 'expense',
    merchant: 'Clas Ohlson',
    amount: 12_500,
    currency: 'NOK',
    amountNok: null,
    date: '2026-11-20',
    accountCode: '6540',
    vatRate: '25',
    description: null,
    receipt: null,
    thread: null,
    ...overrides,
  });
}

const aSupplierInvoice = (overrides: Partial<ExpenseDetails> = {}) =>
  anExpense({
    kind: 'supplier_invoice',
    paidWith: null,
    supplier: { name: 'Kontorrekvisita AS', organizationNumber: '923609016', bankAccount: null, kid: null },
    invoiceNumber: 'F-1001',
    dueDate: '2026-12-20',
    ...overrides,
  });

function refusal(run: () => void): { code: string; message: string; fields: string[] } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, message: error.message, fields: (error.fieldErrors ?? []).map((e) => e.field) };
  }
  throw new Error('expected the proposal to be refused');
}

const check = (context: CompanyContext, details: ExpenseDetails, fieldPrefix?: string) => () =>
  assertBookable(context, details, { paymentAccounts: PAYMENT_ACCOUNTS, ...(fieldPrefix && { fieldPrefix }) });

describe('assertBookable', () => {
  it('accepts a plain expense on an account without rules, or with rules it keeps', () => {
    expect(check(aContext([account('6540', null)]), anExpense())).not.toThrow();
    expect(check(aContext([account('6540', { lockedVatCode: '1', legalVatCodes: ['1'] })]), anExpense())).not.toThrow();
  });

  it('refuses an account the chart does not have (unknown_account_code)', () => {
    expect(refusal(check(aContext([]), anExpense()))).toMatchObject({
      code: 'unknown_account_code',
      fields: ['accountCode'],
    });
  });

  it('refuses an inactive account, saying so', () => {
    expect(refusal(check(aContext([account('6540', { inactive: true })]), anExpense()))).toEqual({
      code: 'account_rule_violated',
      message: "account 6540 is inactive in the company's chart",
      fields: ['accountCode'],
    });
  });

  it('refuses a VAT code other than the one a VAT-locked account takes, naming the rate', () => {
    const context = aContext([account('6300', { lockedVatCode: '1' })]);
    expect(refusal(check(context, anExpense({ accountCode: '6300', vatRate: '15' })))).toEqual({
      code: 'account_rule_violated',
      message: 'account 6300 only takes VAT code 1, not 11',
      fields: ['vatRate'],
    });
  });

  it('refuses a VAT code the account does not allow', () => {
    const context = aContext([account('6540', { legalVatCodes: ['1', '0'] })]);
    expect(refusal(check(context, anExpense({ vatRate: '15' })))).toMatchObject({
      code: 'account_rule_violated',
      message: 'account 6540 does not take VAT code 11; it takes 1, 0',
    });
  });

  it('checks each line of a multi-line proposal, naming the line', () => {
    const context = aContext([account('6540', null), account('6860', { lockedVatCode: '0' })]);
    const details = anExpense({
      lines: [
        { accountCode: '6540', vatRate: '25', amount: 10_000, description: null },
        { accountCode: '6860', vatRate: '25', amount: 2_500, description: 'course' },
      ],
    });
    expect(refusal(check(context, details))).toEqual({
      code: 'account_rule_violated',
      message: 'account 6860 only takes VAT code 0, not 1',
      fields: ['lines.1.vatRate'],
    });
  });

  it.each(['customer', 'asset'] as const)('refuses an expense line on a %s sub-ledger account', (ledgerType) => {
    const context = aContext([account('1500', { ledgerType })]);
    expect(refusal(check(context, anExpense({ accountCode: '1500' })))).toMatchObject({
      code: 'account_rule_violated',
      message: expect.stringContaining(`account 1500 is a ${ledgerType} sub-ledger account`),
    });
  });

  it('refuses an expense line on the supplier or employee sub-ledger', () => {
    expect(refusal(check(aContext([]), anExpense({ accountCode: '2400', vatRate: '0' })))).toMatchObject({
      code: 'account_rule_violated',
      message: expect.stringContaining('account 2400 is a supplier sub-ledger account'),
    });
    expect(refusal(check(aContext([]), anExpense({ accountCode: '2910', vatRate: '0' })))).toMatchObject({
      code: 'account_rule_violated',
      message: expect.stringContaining('account 2910 is an employee sub-ledger account'),
    });
  });

  it('credits a supplier invoice to the supplier sub-ledger, and an employee outlay to the employee one', () => {
    const context = aContext([account('6540', null)]);
    expect(check(context, aSupplierInvoice())).not.toThrow();
    expect(check(context, anExpense({ paidWith: 'employee' }))).not.toThrow();
  });

  it("refuses a supplier invoice from a supplier whose own sub-ledger is inactive (Fiken's deactivated contact)", () => {
    const ledger = (organizationNumber: string, inactive: boolean): ProviderAccount => ({
      ...account('2400:20005', { ledgerType: 'supplier', inactive }),
      name: 'Kontorrekvisita AS',
      supplierOrganizationNumber: organizationNumber,
    });
    const deactivated = aContext([account('6540', null), ledger('923609016', true)]);

    expect(refusal(check(deactivated, aSupplierInvoice(), 'corrections.'))).toEqual({
      code: 'account_rule_violated',
      message:
        "supplier 923609016 is deactivated at the provider: its account 2400:20005 (Kontorrekvisita AS) is inactive in the company's chart; reactivate the supplier",
      fields: ['corrections.supplier.organizationNumber'],
    });
    expect(check(aContext([account('6540', null), ledger('923609016', false)]), aSupplierInvoice())).not.toThrow();
    expect(check(aContext([account('6540', null), ledger('974760673', true)]), aSupplierInvoice())).not.toThrow();
    expect(check(deactivated, anExpense())).not.toThrow();
  });

  it("refuses a supplier invoice from a supplier the provider marked inactive (Tripletex's isInactive)", () => {
    const inactive = (organizationNumber: string): CompanyContext => ({
      ...aContext([account('6540', null)]),
      inactiveSuppliers: [{ id: '10300', name: 'Gamle Kontor AS', organizationNumber }],
    });

    expect(refusal(check(inactive('923609016'), aSupplierInvoice(), 'corrections.'))).toEqual({
      code: 'account_rule_violated',
      message: 'supplier 923609016 (Gamle Kontor AS) is inactive at the provider; reactivate the supplier',
      fields: ['corrections.supplier.organizationNumber'],
    });
    expect(check(inactive('974760673'), aSupplierInvoice())).not.toThrow();
    expect(check(inactive('923609016'), anExpense())).not.toThrow();
  });

  it('refuses a bank or card payment credited to an employee sub-ledger account', () => {
    const context = aContext([account('6540', null)]);
    const details = anExpense({ paidWith: 'bank' });
    const refused = refusal(() =>
      assertBookable(context, details, { paymentAccounts: { ...PAYMENT_ACCOUNTS, bank: '2910' } }),
    );
    expect(refused).toMatchObject({ code: 'account_rule_violated', fields: ['paidWith'] });
  });

  it('refuses an expense paid with the company card while its account is not set', () => {
    const context = aContext([account('6540', null)]);
    const refused = refusal(() =>
      assertBookable(context, anExpense({ paidWith: 'company_card' }), {
        paymentAccounts: { ...PAYMENT_ACCOUNTS, company_card: null },
      }),
    );
    expect(refused).toEqual({
      code: 'payment_account_not_configured',
      message: expect.stringContaining('paymentAccounts.company_card'),
      fields: ['paidWith'],
    });
  });

  it('asks for a department where the account requires one, and accepts one of the company', () => {
    const context = aContext([account('6540', { requiresDepartment: true })]);
    expect(refusal(check(context, anExpense()))).toMatchObject({
      code: 'department_required',
      message: expect.stringContaining('account 6540 requires a department'),
      fields: ['departmentId'],
    });
    expect(check(context, anExpense({ departmentId: '7' }))).not.toThrow();
  });

  it("refuses a department that is not one of the company's", () => {
    expect(refusal(check(aContext([account('6540', null)]), anExpense({ departmentId: '99' })))).toMatchObject({
      code: 'validation_failed',
      fields: ['departmentId'],
    });
  });

  it('refuses an account requiring a project, saying the service sets none yet', () => {
    const context = aContext([account('6540', { requiresProject: true })]);
    expect(refusal(check(context, anExpense()))).toMatchObject({
      code: 'account_rule_violated',
      message: expect.stringContaining('account 6540 requires a project, and the service does not set projects'),
    });
  });

  it('checks the credit account when the chart has it: an inactive bank account is refused', () => {
    const context = aContext([account('6540', null), account('1921', { inactive: true })]);
    const refused = refusal(() =>
      assertBookable(context, anExpense(), { paymentAccounts: { ...PAYMENT_ACCOUNTS, bank: '1921' } }),
    );
    expect(refused).toMatchObject({
      code: 'account_rule_violated',
      message: "account 1921 is inactive in the company's chart",
    });
  });

  it('does not check a rate paid abroad without deduction against the chart', () => {
    const context = aContext([account('6540', { legalVatCodes: ['0', '1'] })]);
    const details = anExpense({
      currency: 'SEK',
      amountNok: 12_000,
      vatRate: '6',
      vatTreatment: 'foreign_no_deduction',
    });
    expect(check(context, details)).not.toThrow();
  });

  it('refuses a rate without a code under the treatment (reverse charge at 15 %)', () => {
    const context = aContext([account('6540', null)]);
    const details = anExpense({ currency: 'EUR', amountNok: 12_000, vatRate: '15', vatTreatment: 'reverse_charge' });
    expect(refusal(check(context, details))).toMatchObject({ code: 'validation_failed', fields: ['vatRate'] });
  });

  it('names the corrected fields when checking corrections', () => {
    expect(refusal(check(aContext([account('6540', { inactive: true })]), anExpense(), 'corrections.'))).toMatchObject({
      fields: ['corrections.accountCode'],
    });
  });
});

describe('creditAccountOf', () => {
  it('is the payment account for how an expense was paid, accounts payable for a supplier invoice', () => {
    expect(creditAccountOf(anExpense(), PAYMENT_ACCOUNTS)).toBe('1920');
    expect(creditAccountOf(anExpense({ paidWith: 'company_card' }), PAYMENT_ACCOUNTS)).toBe('1930');
    expect(creditAccountOf(anExpense({ paidWith: 'employee' }), PAYMENT_ACCOUNTS)).toBe('2910');
    expect(creditAccountOf(aSupplierInvoice(), PAYMENT_ACCOUNTS)).toBe('2400');
  });
});

describe('withDefaultDepartment', () => {
  it("fills in the submitter's default department only where the proposal names none", () => {
    expect(withDefaultDepartment(anExpense(), '7').departmentId).toBe('7');
    expect(withDefaultDepartment(anExpense({ departmentId: '3' }), '7').departmentId).toBe('3');
    expect(withDefaultDepartment(anExpense(), null).departmentId).toBeNull();
  });
});
