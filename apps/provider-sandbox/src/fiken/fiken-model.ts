/** The Fiken sandbox's records. Amounts are integer øre, as on the wire. */

export interface FikenAccount {
  code: string;
  name: string;
}

export interface FikenContact {
  contactId: number;
  name: string;
  organizationNumber: string;
  email: string;
  supplierNumber?: number;
  customerNumber?: number;
  /** Sub-ledger account of the contact, e.g. `2400:20001`. */
  account: string;
  bankAccountNumber?: string;
  inactive?: boolean;
}

/** A bank account as GET /bankAccounts lists it (`bankAccountResult`). */
export interface FikenBankAccount {
  bankAccountId: number;
  name: string;
  /** The chart's sub-ledger account it posts to, e.g. `1920:10001`. */
  accountCode: string;
  bankAccountNumber: string;
  type: 'normal' | 'tax_deduction' | 'foreign' | 'credit_card';
  inactive: boolean;
}

export interface FikenAttachment {
  identifier: string;
  downloadUrl: string;
  downloadUrlWithFikenNormalUserCredentials: string;
  comment?: string;
  type: 'invoice';
}

export interface FikenJournalLine {
  amount: number;
  account: string;
  vatCode?: string;
}

export interface FikenJournalEntry {
  journalEntryId: number;
  journalEntryNumber: number;
  transactionId: number;
  date: string;
  description: string;
  lines: FikenJournalLine[];
  attachments: FikenAttachment[];
}

export interface FikenPurchaseLine {
  description: string;
  netPrice: number;
  vat: number;
  account: string;
  vatType: string;
  /** Set on a purchase in a foreign currency: the line's prices in that currency (equal to netPrice/vat). */
  netPriceInCurrency?: number;
  vatInCurrency?: number;
}

export interface FikenPurchase {
  purchaseId: number;
  transactionId: number;
  identifier?: string;
  date: string;
  dueDate?: string;
  kind: 'cash_purchase' | 'supplier';
  paid: boolean;
  lines: FikenPurchaseLine[];
  supplierId?: number;
  currency: string;
  paymentAccount?: string;
  paymentDate?: string;
  /** The NOK amount actually paid, for a purchase in a foreign currency. */
  paymentAmountInNok?: number;
  kid?: string;
  purchaseAttachments: FikenAttachment[];
  /** The journal entry the purchase produced (its ledger lines). */
  journalEntry: FikenJournalEntry;
  createdAt: string;
}

export interface FikenGrant {
  id: number;
  clientId: string;
  companyIndex: number;
  refreshToken: string;
  revoked: boolean;
}

export interface FikenAccessToken {
  grantId: number;
  expiresAt: number;
}

export interface FikenAuthorizationCode {
  clientId: string;
  redirectUri: string;
  /** The `state` of the authorize request, which the code exchange must repeat. */
  state: string;
  companyIndex: number;
  expiresAt: number;
  used: boolean;
}
