import { fikenCompanySlug } from '../constants';
import { BANK_ACCOUNT, CHART, CUSTOMER_ACCOUNT, SUPPLIER_ACCOUNT } from '../seed/chart';
import type { InvoiceShape } from '../seed/invoices';
import type { LedgerShape } from '../seed/ledger';
import { seedParties } from '../seed/parties';
import { Random } from '../shared/random';
import type { FikenAccount, FikenBankAccount, FikenContact } from './fiken-model';

export const FIKEN_STREAM = 3;
const FIKEN_INVOICE_STREAM = 4;

const FIKEN_BANK_ACCOUNT = `${BANK_ACCOUNT}:10001`;
/** The company card: a bank account of type credit card, whose balance goes negative as the card is used. */
export const FIKEN_CARD_ACCOUNT = `${BANK_ACCOUNT}:10002`;
/** A closed bank account, kept (inactive) in the chart: Fiken refuses payments from it. */
export const FIKEN_CLOSED_ACCOUNT = `${BANK_ACCOUNT}:10003`;
/** NS 4102 2910: what the company owes its employees and owners for their outlays. */
export const EMPLOYEE_DEBT_ACCOUNT = '2910';

/** The company's bank accounts (GET /bankAccounts): the account code each one posts to, and its type. */
function seededBankAccounts(index: number): FikenBankAccount[] {
  const bankAccountId = (n: number) => 5_000_000 + index * 100 + n;
  return [
    {
      bankAccountId: bankAccountId(1),
      name: 'Driftskonto',
      accountCode: FIKEN_BANK_ACCOUNT,
      bankAccountNumber: '15030012345',
      type: 'normal',
      inactive: false,
    },
    {
      bankAccountId: bankAccountId(2),
      name: 'Firmakort',
      accountCode: FIKEN_CARD_ACCOUNT,
      bankAccountNumber: '15030054321',
      type: 'credit_card',
      inactive: false,
    },
    {
      bankAccountId: bankAccountId(3),
      name: 'Gammel driftskonto',
      accountCode: FIKEN_CLOSED_ACCOUNT,
      bankAccountNumber: '15030099999',
      type: 'normal',
      inactive: true,
    },
    {
      bankAccountId: bankAccountId(4),
      name: 'Skattetrekkskonto',
      accountCode: '1950:10002',
      bankAccountNumber: '15030011111',
      type: 'tax_deduction',
      inactive: false,
    },
  ];
}

/**
 * Fiken's VAT types, their rates and where the definition allows them ("VAT Code" table):
 * `null` rate: VAT is not checked against the net; `purchases: false`: sales only.
 */
export const FIKEN_VAT_TYPES: Record<
  string,
  { rate: number | null; vatCode?: string; purchases: boolean; reverseCharge?: number }
> = {
  NONE: { rate: 0, vatCode: '0', purchases: true },
  HIGH: { rate: 0.25, vatCode: '1', purchases: true },
  MEDIUM: { rate: 0.15, vatCode: '11', purchases: true },
  LOW: { rate: 0.12, vatCode: '13', purchases: true },
  RAW_FISH: { rate: 0.1111, vatCode: '12', purchases: true },
  EXEMPT: { rate: 0, purchases: false },
  EXEMPT_IMPORT_EXPORT: { rate: 0, purchases: false },
  EXEMPT_REVERSE: { rate: 0, purchases: false },
  OUTSIDE: { rate: 0, purchases: false },
  HIGH_DIRECT: { rate: 0.25, purchases: true },
  HIGH_BASIS: { rate: null, purchases: true },
  MEDIUM_DIRECT: { rate: 0.15, purchases: true },
  MEDIUM_BASIS: { rate: null, purchases: true },
  NONE_IMPORT_BASIS: { rate: null, purchases: true },
  // A service bought from abroad: the line is the amount paid (no VAT in it); Fiken computes the
  // Norwegian VAT on it (`reverseCharge`, hundredths of a percent) and posts it on both sides.
  HIGH_FOREIGN_SERVICE_DEDUCTIBLE: { rate: 0, vatCode: '86', purchases: true, reverseCharge: 2500 },
  HIGH_FOREIGN_SERVICE_NONDEDUCTIBLE: { rate: null, purchases: true },
  LOW_FOREIGN_SERVICE_DEDUCTIBLE: { rate: 0, vatCode: '88', purchases: true, reverseCharge: 1200 },
  LOW_FOREIGN_SERVICE_NONDEDUCTIBLE: { rate: null, purchases: true },
  HIGH_PURCHASE_OF_EMISSIONSTRADING_OR_GOLD_DEDUCTIBLE: { rate: null, purchases: true },
  HIGH_PURCHASE_OF_EMISSIONSTRADING_OR_GOLD_NONDEDUCTIBLE: { rate: null, purchases: true },
};

/** One seeded Fiken company: slug, chart with sub-ledger accounts (`1920:10001`), contacts. */
export class FikenCompany {
  readonly slug: string;
  readonly name: string;
  readonly organizationNumber: string;
  readonly accounts: FikenAccount[];
  readonly suppliers: FikenContact[];
  readonly customers: FikenContact[];
  readonly ledger: LedgerShape;
  readonly invoiceShape: InvoiceShape;
  readonly bankAccounts: FikenBankAccount[];
  private readonly codes: Set<string>;

  constructor(
    readonly index: number,
    seed: number,
    entries: number,
    invoices: number,
    endDate: string,
    days: number,
  ) {
    const parties = seedParties(Random.of(seed, FIKEN_STREAM, index, -1), index, 'Demo Fiken AS');
    this.slug = fikenCompanySlug(index);
    this.name = parties.companyName;
    this.organizationNumber = parties.organizationNumber;
    this.suppliers = parties.suppliers.map((s) => ({
      contactId: 1_000 + s.index,
      name: s.name,
      organizationNumber: s.organizationNumber,
      email: s.email,
      supplierNumber: 20_001 + s.index,
      account: `${SUPPLIER_ACCOUNT}:${20_001 + s.index}`,
      // The last supplier has been deactivated: its sub-ledger stays in the chart, inactive.
      ...(s.index === parties.suppliers.length - 1 ? { inactive: true } : {}),
    }));
    this.customers = parties.customers.map((c) => ({
      contactId: 2_000 + c.index,
      name: c.name,
      organizationNumber: c.organizationNumber,
      email: c.email,
      customerNumber: 10_001 + c.index,
      account: `${CUSTOMER_ACCOUNT}:${10_001 + c.index}`,
    }));
    this.bankAccounts = seededBankAccounts(index);
    this.accounts = [];
    const listed = new Set(CHART.map((account) => account.number));
    for (const account of CHART) {
      if (account.number === BANK_ACCOUNT || account.number === 1950) {
        const banks = this.bankAccounts.filter((b) => b.accountCode.startsWith(`${account.number}:`));
        this.accounts.push(...banks.map((b) => ({ code: b.accountCode, name: b.name })));
      } else this.accounts.push({ code: String(account.number), name: account.name });
      if (account.number === 2780 && !listed.has(Number(EMPLOYEE_DEBT_ACCOUNT)))
        this.accounts.push({ code: EMPLOYEE_DEBT_ACCOUNT, name: 'Gjeld til ansatte og eiere' });
      if (account.number === CUSTOMER_ACCOUNT)
        this.accounts.push(...this.customers.map((c) => ({ code: c.account, name: c.name })));
      if (account.number === SUPPLIER_ACCOUNT)
        this.accounts.push(...this.suppliers.map((s) => ({ code: s.account, name: s.name })));
    }
    this.codes = new Set(this.accounts.map((a) => a.code));
    this.ledger = { seed, stream: FIKEN_STREAM, company: index, count: entries, endDate, days };
    this.invoiceShape = { seed, stream: FIKEN_INVOICE_STREAM, company: index, count: invoices, endDate };
  }

  hasAccount(code: string): boolean {
    return this.codes.has(code);
  }

  isBankAccount(code: string): boolean {
    return /^19[2-5]\d:\d{5}$/.test(code) && this.codes.has(code);
  }

  /** An account Fiken no longer posts to: a deactivated bank account, or the sub-ledger of an inactive contact. */
  isInactive(code: string): boolean {
    return (
      this.bankAccounts.some((b) => b.accountCode === code && b.inactive) ||
      this.suppliers.some((s) => s.account === code && s.inactive === true)
    );
  }

  /** The account of what the company owes its employees (2910), or one of its sub-ledgers. */
  isEmployeeDebtAccount(code: string): boolean {
    return (code === EMPLOYEE_DEBT_ACCOUNT || code.startsWith(`${EMPLOYEE_DEBT_ACCOUNT}:`)) && this.codes.has(code);
  }

  /** Adds a supplier contact created through the API, with its sub-ledger account on 2400. */
  addSupplier(contact: FikenContact): void {
    if (this.suppliers.some((s) => s.contactId === contact.contactId)) return;
    this.suppliers.push(contact);
    const at = this.accounts.findIndex((a) => a.code.startsWith(`${SUPPLIER_ACCOUNT}:`));
    const after =
      at < 0
        ? this.accounts.length
        : at + this.accounts.filter((a) => a.code.startsWith(`${SUPPLIER_ACCOUNT}:`)).length;
    this.accounts.splice(after, 0, { code: contact.account, name: contact.name });
    this.codes.add(contact.account);
  }

  /** The next free supplier number (and sub-ledger `2400:<number>`). */
  nextSupplierNumber(): number {
    return Math.max(20_000, ...this.suppliers.map((s) => s.supplierNumber ?? 0)) + 1;
  }

  accountName(code: string): string {
    return this.accounts.find((a) => a.code === code)?.name ?? code;
  }

  /** Maps a neutral ledger account number to this company's Fiken code. */
  code(account: number, supplier?: number, customer?: number): string {
    if (account === BANK_ACCOUNT) return FIKEN_BANK_ACCOUNT;
    if (account === SUPPLIER_ACCOUNT && supplier !== undefined) return this.suppliers[supplier].account;
    if (account === CUSTOMER_ACCOUNT && customer !== undefined) return this.customers[customer].account;
    return String(account);
  }

  journalEntryId(entryIndex: number): number {
    return 3_000_000_000 + this.index * 1_000_000 + entryIndex + 1;
  }

  bookedJournalEntryId(sequence: number): number {
    return 3_000_000_000 + this.index * 1_000_000 + 900_000 + sequence;
  }

  purchaseId(sequence: number): number {
    return 4_000_000_000 + this.index * 100_000 + sequence;
  }

  invoiceId(index: number): number {
    return 80_000_000 + this.index * 10_000 + index;
  }
}
