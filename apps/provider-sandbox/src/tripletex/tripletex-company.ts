import { tripletexEmployeeToken } from '../constants';
import type { InvoiceShape } from '../seed/invoices';
import type { LedgerShape } from '../seed/ledger';
import { seedParties } from '../seed/parties';
import { hashInts, Random } from '../shared/random';
import { TRIPLETEX_CHART, TRIPLETEX_VAT_CODES, TRIPLETEX_VOUCHER_TYPES, tripletexRulesOf } from './tripletex-chart';
import type { TxAccount, TxDepartment, TxEmployee, TxParty, TxVatType, TxVoucherType } from './tripletex-model';

export const TRIPLETEX_STREAM = 1;
const TRIPLETEX_INVOICE_STREAM = 2;

/**
 * One seeded Tripletex company. Ids are derived from the company index with a per-company twist, so
 * they differ between companies (account 1920 and VAT type "1" have other ids elsewhere) and the
 * adapter must look them up, as against the real service.
 */
export class TripletexCompany {
  readonly id: number;
  readonly name: string;
  readonly organizationNumber: string;
  readonly employeeToken: string;
  readonly accounts: TxAccount[];
  readonly vatTypes: TxVatType[];
  /** The standard voucher types (TRIPLETEX_VOUCHER_TYPES), with this company's ids. */
  readonly voucherTypes: TxVoucherType[];
  readonly departments: TxDepartment[];
  readonly employees: TxEmployee[];
  readonly suppliers: TxParty[];
  readonly customers: TxParty[];
  readonly ledger: LedgerShape;
  readonly invoiceShape: InvoiceShape;
  private readonly accountsById: Map<number, TxAccount>;
  private readonly accountsByNumber: Map<number, TxAccount>;
  private readonly vatTypesById: Map<number, TxVatType>;
  private readonly vatTypesByNumber: Map<string, TxVatType>;

  constructor(
    readonly index: number,
    seed: number,
    entries: number,
    invoices: number,
    endDate: string,
    days: number,
  ) {
    const random = Random.of(seed, TRIPLETEX_STREAM, index, -1);
    const parties = seedParties(random, index, 'Demo Tripletex AS');
    const twist = hashInts(seed, index) % 97;
    this.id = 108_000 + index * 3 + (twist % 3);
    this.name = parties.companyName;
    this.organizationNumber = parties.organizationNumber;
    this.employeeToken = tripletexEmployeeToken(index);
    this.vatTypes = TRIPLETEX_VAT_CODES.map((code, i) => ({
      id: 40_000 + index * 100 + twist + i * 3,
      number: code.number,
      name: code.name,
      percentage: code.percentage,
      direction: code.direction,
    }));
    this.vatTypesById = new Map(this.vatTypes.map((vatType) => [vatType.id, vatType]));
    this.voucherTypes = TRIPLETEX_VOUCHER_TYPES.map((name, i) => ({ id: 8_000_000 + index * 1_000 + twist + i, name }));
    this.vatTypesByNumber = new Map(this.vatTypes.map((vatType) => [vatType.number, vatType]));
    this.accounts = TRIPLETEX_CHART.map((account, i) => ({
      id: 300_000_000 + index * 1_000 + twist * 5 + i * 7,
      number: account.number,
      name: account.name,
      type: account.type,
      vatTypeId: account.vat ? (this.vatTypesByNumber.get(account.vat)?.id ?? null) : null,
      isBankAccount: account.isBankAccount === true,
      rules: tripletexRulesOf(account),
    }));
    this.accountsById = new Map(this.accounts.map((account) => [account.id, account]));
    this.accountsByNumber = new Map(this.accounts.map((account) => [account.number, account]));
    const base = 10_000_000 + index * 1_000;
    this.departments = parties.departments.map((d) => ({
      id: base + 100 + d.index,
      name: d.name,
      departmentNumber: d.departmentNumber,
    }));
    this.employees = parties.employees.map((e) => ({
      id: base + 200 + e.index,
      firstName: e.firstName,
      lastName: e.lastName,
      email: e.email,
      employeeNumber: String(e.index + 1),
      departmentId: this.departments[e.index % this.departments.length].id,
    }));
    this.suppliers = parties.suppliers.map((s) => ({
      id: base + 300 + s.index,
      name: s.name,
      organizationNumber: s.organizationNumber,
      email: s.email,
      number: 20_001 + s.index,
      // The last supplier is no longer used: Tripletex keeps it, marked inactive.
      ...(s.index === parties.suppliers.length - 1 ? { inactive: true } : {}),
    }));
    this.customers = parties.customers.map((c) => ({
      id: base + 400 + c.index,
      name: c.name,
      organizationNumber: c.organizationNumber,
      email: c.email,
      number: 10_001 + c.index,
    }));
    this.ledger = { seed, stream: TRIPLETEX_STREAM, company: index, count: entries, endDate, days };
    this.invoiceShape = { seed, stream: TRIPLETEX_INVOICE_STREAM, company: index, count: invoices, endDate };
  }

  get employeeId(): number {
    return this.employees[0].id;
  }

  account(id: number): TxAccount | undefined {
    return this.accountsById.get(id);
  }

  accountByNumber(number: number): TxAccount {
    const account = this.accountsByNumber.get(number);
    if (!account) throw new Error(`Account ${number} missing from company ${this.index}`);
    return account;
  }

  vatType(id: number): TxVatType | undefined {
    return this.vatTypesById.get(id);
  }

  voucherType(id: number): TxVoucherType | undefined {
    return this.voucherTypes.find((voucherType) => voucherType.id === id);
  }

  voucherTypeByName(name: string): TxVoucherType {
    const voucherType = this.voucherTypes.find((v) => v.name === name);
    if (!voucherType) throw new Error(`Voucher type ${name} missing from company ${this.index}`);
    return voucherType;
  }

  vatTypeByNumber(number: string): TxVatType {
    const vatType = this.vatTypesByNumber.get(number);
    if (!vatType) throw new Error(`VAT type ${number} missing from company ${this.index}`);
    return vatType;
  }

  /** Voucher ids: seeded vouchers count up from the base, bookings from base + 900 000. */
  voucherId(entryIndex: number): number {
    return 2_000_000_000 + this.index * 1_000_000 + entryIndex + 1;
  }

  bookedVoucherId(sequence: number): number {
    return 2_000_000_000 + this.index * 1_000_000 + 900_000 + sequence;
  }

  invoiceId(invoiceIndex: number): number {
    return 70_000_000 + this.index * 10_000 + invoiceIndex;
  }
}
