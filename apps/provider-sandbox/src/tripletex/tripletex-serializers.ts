import { CURRENCIES, currencyById } from '../seed/currencies';
import { oreToKroner } from '../shared/money';
import type { TripletexCompany } from './tripletex-company';
import { ResourceRef } from './tripletex-fields';
import type {
  TxAccount,
  TxDocument,
  TxInvoice,
  TxParty,
  TxPosting,
  TxSupplierInvoice,
  TxVatType,
  TxVoucher,
  TxVoucherType,
} from './tripletex-model';

/**
 * Full Tripletex resources (every own field, nested resources as full objects carrying `url`);
 * the fields filter then collapses or expands them. Money is kroner with two decimals.
 */
export class TripletexSerializer {
  constructor(
    private readonly apiBase: string,
    private readonly company: TripletexCompany,
  ) {}

  private url(path: string, id: number): string {
    return `${this.apiBase}/${path}/${id}`;
  }

  private ref(path: string, id: number, load: () => Record<string, unknown>): ResourceRef {
    return new ResourceRef(id, this.url(path, id), load);
  }

  private currencyRef(id = 1): ResourceRef {
    return this.ref('currency', id, () => this.currency(id));
  }

  private vatTypeRef(vatType: TxVatType | undefined): ResourceRef | null {
    return vatType ? this.ref('ledger/vatType', vatType.id, () => this.vatType(vatType)) : null;
  }

  private voucherTypeRef(id: number | null): ResourceRef | null {
    const voucherType = id === null ? undefined : this.company.voucherType(id);
    return voucherType ? this.ref('ledger/voucherType', voucherType.id, () => this.voucherType(voucherType)) : null;
  }

  private departmentRef(id: number | null): ResourceRef | null {
    const department = id === null ? undefined : this.company.departments.find((d) => d.id === id);
    return department ? this.ref('department', department.id, () => this.department(department.id) ?? {}) : null;
  }

  private partyRef(path: 'supplier' | 'customer', id: number | null): ResourceRef | null {
    if (id === null) return null;
    return this.ref(path, id, () => (path === 'supplier' ? this.supplier(id) : this.customer(id)) ?? {});
  }

  currency(id = 1): Record<string, unknown> {
    const currency = currencyById(id) ?? CURRENCIES[0];
    return {
      id: currency.id,
      version: 0,
      url: this.url('currency', currency.id),
      code: currency.code,
      description: currency.description,
      factor: 1,
      displayName: `${currency.code} ${currency.description}`,
      isDisabled: false,
    };
  }

  vatType(vatType: TxVatType): Record<string, unknown> {
    return {
      id: vatType.id,
      version: 0,
      url: this.url('ledger/vatType', vatType.id),
      name: vatType.name,
      number: vatType.number,
      displayName: `${vatType.number} ${vatType.name}`,
      percentage: vatType.percentage,
      deductionPercentage: vatType.direction === 'input' || vatType.direction === 'reverse' ? 100 : 0,
    };
  }

  voucherType(voucherType: TxVoucherType): Record<string, unknown> {
    return {
      id: voucherType.id,
      version: 0,
      url: this.url('ledger/voucherType', voucherType.id),
      name: voucherType.name,
      displayName: voucherType.name,
    };
  }

  account(account: TxAccount): Record<string, unknown> {
    const vatType = account.vatTypeId !== null ? this.company.vatType(account.vatTypeId) : undefined;
    const { rules } = account;
    // Tripletex lists the VAT types an account takes; an empty list here: no restriction.
    const legalVatTypes = (rules.legalVatCodes ?? [])
      .map((number) => this.company.vatTypes.find((v) => v.number === number))
      .filter((v): v is TxVatType => v !== undefined)
      .map((v) => this.vatTypeRef(v));
    return {
      id: account.id,
      version: 0,
      url: this.url('ledger/account', account.id),
      number: account.number,
      numberPretty: String(account.number),
      name: account.name,
      description: '',
      type: account.type,
      legalVatTypes,
      ledgerType: rules.ledgerType,
      balanceGroup: null,
      vatType: this.vatTypeRef(vatType),
      vatLocked: rules.vatLocked,
      currency: null,
      isCloseable: false,
      isApplicableForSupplierInvoice: account.type === 'OPERATING_EXPENSES',
      requireReconciliation: account.isBankAccount,
      isInactive: rules.isInactive,
      isBankAccount: account.isBankAccount,
      isInvoiceAccount: false,
      bankAccountNumber: account.isBankAccount ? '15030012345' : null,
      displayName: `${account.number} ${account.name}`,
      requiresDepartment: rules.requiresDepartment,
      requiresProject: rules.requiresProject,
    };
  }

  department(id: number): Record<string, unknown> | null {
    const department = this.company.departments.find((d) => d.id === id);
    if (!department) return null;
    return {
      id: department.id,
      version: 0,
      url: this.url('department', department.id),
      name: department.name,
      departmentNumber: department.departmentNumber,
      departmentManager: null,
      displayName: `${department.departmentNumber} ${department.name}`,
      isInactive: false,
    };
  }

  employee(id: number): Record<string, unknown> | null {
    const employee = this.company.employees.find((e) => e.id === id);
    if (!employee) return null;
    return {
      id: employee.id,
      version: 0,
      url: this.url('employee', employee.id),
      firstName: employee.firstName,
      lastName: employee.lastName,
      displayName: `${employee.firstName} ${employee.lastName}`,
      employeeNumber: employee.employeeNumber,
      email: employee.email,
      department: this.departmentRef(employee.departmentId),
      isContact: false,
    };
  }

  private party(path: 'supplier' | 'customer', party: TxParty): Record<string, unknown> {
    return {
      id: party.id,
      version: 0,
      url: this.url(path, party.id),
      name: party.name,
      organizationNumber: party.organizationNumber,
      [path === 'supplier' ? 'supplierNumber' : 'customerNumber']: party.number,
      email: party.email,
      ...(path === 'supplier'
        ? {
            bankAccounts: party.bankAccounts ?? [],
            bankAccountPresentation: (party.bankAccounts ?? []).map((bban) => ({ bban, iban: null, bic: null })),
          }
        : {}),
      isInactive: party.inactive === true,
      currency: this.currencyRef(),
    };
  }

  supplier(id: number | null): Record<string, unknown> | null {
    const supplier = id === null ? undefined : this.company.suppliers.find((s) => s.id === id);
    return supplier ? this.party('supplier', supplier) : null;
  }

  customer(id: number | null): Record<string, unknown> | null {
    const customer = id === null ? undefined : this.company.customers.find((c) => c.id === id);
    return customer ? this.party('customer', customer) : null;
  }

  document(document: TxDocument): Record<string, unknown> {
    return {
      id: document.id,
      version: 0,
      url: this.url('document', document.id),
      fileName: document.fileName,
      size: document.size,
      mimeType: document.mimeType,
    };
  }

  private documentRef(document: TxDocument): ResourceRef {
    return this.ref('document', document.id, () => this.document(document));
  }

  posting(voucher: TxVoucher, posting: TxPosting): Record<string, unknown> {
    const account = this.company.account(posting.accountId);
    const vatType = posting.vatTypeId !== null ? this.company.vatType(posting.vatTypeId) : undefined;
    return {
      id: posting.id,
      version: 0,
      url: this.url('ledger/posting', posting.id),
      voucher: this.ref('ledger/voucher', voucher.id, () => ({
        id: voucher.id,
        url: this.url('ledger/voucher', voucher.id),
      })),
      date: posting.date,
      description: posting.description,
      account: account ? this.ref('ledger/account', account.id, () => this.account(account)) : null,
      customer: this.partyRef('customer', posting.customerId),
      supplier: this.partyRef('supplier', posting.supplierId),
      employee:
        posting.employeeId !== null
          ? this.ref('employee', posting.employeeId, () => this.employee(posting.employeeId ?? 0) ?? {})
          : null,
      project: null,
      product: null,
      department: this.departmentRef(posting.departmentId),
      vatType: this.vatTypeRef(vatType),
      amount: oreToKroner(posting.amount),
      amountCurrency: oreToKroner(
        posting.amountGross === 0
          ? 0
          : Math.round((posting.amount * posting.amountGrossCurrency) / posting.amountGross),
      ),
      amountGross: oreToKroner(posting.amountGross),
      amountGrossCurrency: oreToKroner(posting.amountGrossCurrency),
      currency: this.currencyRef(posting.currencyId),
      invoiceNumber: posting.invoiceNumber,
      termOfPayment: posting.termOfPayment,
      row: posting.row,
      systemGenerated: posting.systemGenerated,
      closeGroup: null,
    };
  }

  voucher(voucher: TxVoucher): Record<string, unknown> {
    const year = Number(voucher.date.slice(0, 4));
    const postingRefs = (): ResourceRef[] =>
      voucher.postings.map((posting) => this.ref('ledger/posting', posting.id, () => this.posting(voucher, posting)));
    return {
      id: voucher.id,
      version: voucher.version,
      url: this.url('ledger/voucher', voucher.id),
      date: voucher.date,
      number: voucher.inLedger ? voucher.number : 0,
      tempNumber: voucher.inLedger ? 0 : voucher.number,
      year,
      description: voucher.description,
      voucherType: this.voucherTypeRef(voucher.voucherTypeId),
      reverseVoucher: null,
      // A getter: the posting references are only built when the fields filter selects them.
      get postings(): ResourceRef[] {
        return postingRefs();
      },
      document: null,
      attachment: voucher.attachment ? this.documentRef(voucher.attachment) : null,
      externalVoucherNumber: voucher.externalVoucherNumber,
      ediDocument: null,
      vendorInvoiceNumber: voucher.vendorInvoiceNumber,
      numberAsString: voucher.inLedger ? `${voucher.number}-${year}` : null,
    };
  }

  supplierInvoice(invoice: TxSupplierInvoice): Record<string, unknown> {
    const amount = oreToKroner(invoice.amount);
    return {
      id: invoice.id,
      version: 1,
      url: this.url('supplierInvoice', invoice.id),
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      invoiceDueDate: invoice.invoiceDate,
      supplier: this.partyRef('supplier', invoice.supplierId),
      voucher: this.ref('ledger/voucher', invoice.voucher.id, () => this.voucher(invoice.voucher)),
      amount,
      amountCurrency: amount,
      amountExcludingVat: oreToKroner(invoice.voucher.postings[0].amount),
      currency: this.currencyRef(),
      isCreditNote: false,
      outstandingAmount: 0,
    };
  }

  invoice(invoice: TxInvoice): Record<string, unknown> {
    const amount = oreToKroner(invoice.amount);
    const outstanding = oreToKroner(invoice.amountOutstanding);
    const outstandingCurrency = oreToKroner(invoice.amountCurrencyOutstanding);
    return {
      id: invoice.id,
      version: 0,
      url: this.url('invoice', invoice.id),
      invoiceNumber: invoice.invoiceNumber,
      invoiceDate: invoice.invoiceDate,
      customer: this.partyRef('customer', invoice.customerId),
      invoiceDueDate: invoice.invoiceDueDate,
      kid: invoice.kid,
      comment: '',
      amount,
      amountCurrency: oreToKroner(invoice.amountCurrency),
      amountExcludingVat: oreToKroner(invoice.amountExcludingVat),
      amountExcludingVatCurrency: oreToKroner(invoice.amountExcludingVatCurrency),
      amountRoundoff: 0,
      amountOutstanding: outstanding,
      amountCurrencyOutstanding: outstandingCurrency,
      amountOutstandingTotal: outstanding,
      amountCurrencyOutstandingTotal: outstandingCurrency,
      currency: this.currencyRef(invoice.currencyId),
      isCreditNote: false,
      isCharged: true,
      isApproved: true,
      voucher: null,
    };
  }

  balanceRow(
    account: TxAccount,
    balanceIn: number,
    balanceChange: number,
    dateFrom: string,
    dateTo: string,
  ): Record<string, unknown> {
    return {
      account: this.ref('ledger/account', account.id, () => this.account(account)),
      balanceIn: oreToKroner(balanceIn),
      balanceChange: oreToKroner(balanceChange),
      balanceOut: oreToKroner(balanceIn + balanceChange),
      startDate: dateFrom,
      endDate: dateTo,
    };
  }
}
