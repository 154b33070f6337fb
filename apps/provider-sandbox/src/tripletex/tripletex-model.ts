/** The Tripletex sandbox's internal records. Amounts are integer øre; the serializers speak kroner. */

import type { TxAccountRules } from './tripletex-chart';

export interface TxAccount {
  id: number;
  number: number;
  name: string;
  type: string;
  vatTypeId: number | null;
  isBankAccount: boolean;
  /** What Tripletex requires of a posting on the account. */
  rules: TxAccountRules;
}

export interface TxVatType {
  id: number;
  number: string;
  name: string;
  percentage: number;
  /** `reverse`: a reverse charge, VAT posted on both 2710 and 2700. */
  direction: 'input' | 'output' | 'none' | 'reverse';
}

export interface TxParty {
  id: number;
  name: string;
  organizationNumber: string;
  email: string;
  number: number;
  /** Norwegian bank account numbers (BBAN) of a supplier. */
  bankAccounts?: string[];
  /** Marked inactive (`isInactive`): kept, with its history, but no longer in use. */
  inactive?: boolean;
}

export interface TxEmployee {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  employeeNumber: string;
  departmentId: number;
}

export interface TxDepartment {
  id: number;
  name: string;
  departmentNumber: string;
}

export interface TxDocument {
  id: number;
  fileName: string;
  size: number;
  mimeType: string;
}

export interface TxPosting {
  id: number;
  row: number;
  date: string;
  description: string;
  accountId: number;
  /** Net amount in øre (after the VAT split), debit positive. */
  amount: number;
  /** Gross amount in øre as entered. */
  amountGross: number;
  vatTypeId: number | null;
  /** Currency of the posting; `amountGrossCurrency` is in it. NOK (1) unless set. */
  currencyId: number;
  amountGrossCurrency: number;
  supplierId: number | null;
  customerId: number | null;
  departmentId: number | null;
  employeeId: number | null;
  /** A supplier invoice's number and due date, on its accounts-payable posting. */
  invoiceNumber: string | null;
  termOfPayment: string | null;
  systemGenerated: boolean;
}

/** A voucher type (`/ledger/voucherType`): what kind of voucher it is, as the company names it. */
export interface TxVoucherType {
  id: number;
  name: string;
}

export interface TxVoucher {
  id: number;
  version: number;
  number: number;
  date: string;
  description: string;
  /** The voucher's type (TxVoucherType id); null for none. */
  voucherTypeId: number | null;
  externalVoucherNumber: string | null;
  vendorInvoiceNumber: string | null;
  attachment: TxDocument | null;
  postings: TxPosting[];
  /** False for vouchers created with `sendToLedger=false` (not in the ledger yet). */
  inLedger: boolean;
}

export interface TxInvoice {
  id: number;
  invoiceNumber: number;
  invoiceDate: string;
  invoiceDueDate: string;
  customerId: number;
  amount: number;
  amountExcludingVat: number;
  amountOutstanding: number;
  kid: string;
  /** The invoice's currency; the `*Currency` amounts are in it (øre/cents), the others NOK. */
  currencyId: number;
  amountCurrency: number;
  amountExcludingVatCurrency: number;
  amountCurrencyOutstanding: number;
}

export interface TxSession {
  id: number;
  token: string;
  companyIndex: number;
  consumerToken: string;
  employeeToken: string;
  expirationDate: string;
  /** Instant after which calls with the token fail with 401. */
  expiresAt: number;
}

/** A supplier invoice of the seeded history, with the voucher it was booked by. */
export interface TxSupplierInvoice {
  id: number;
  invoiceNumber: string;
  invoiceDate: string;
  supplierId: number;
  /** Gross øre. */
  amount: number;
  voucher: TxVoucher;
}
