/**
 * The bookkeeping vocabulary shared by proposals, the postings preview and the providers: what was
 * bought, how it was paid, how its VAT is treated, and the postings a booking makes. Pure data and
 * tables; docs/bookkeeping.md shows each case's postings on both providers.
 */

/** `expense`: a receipt, already paid. `supplier_invoice`: an invoice to be paid later (accounts payable). */
export const PROPOSAL_KINDS = ['expense', 'supplier_invoice'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

/**
 * How an expense was paid: from the company's bank account, with the company card, or out of an
 * employee's own pocket (the company then owes the employee, who is reimbursed later).
 */
export const PAID_WITH = ['bank', 'company_card', 'employee'] as const;
export type PaidWith = (typeof PAID_WITH)[number];

/**
 * How a purchase's VAT is treated in Norway:
 * - `domestic`: Norwegian input VAT, deductible (SAF-T codes 1, 11, 12, 13; 0 for a purchase without VAT);
 * - `foreign_no_deduction`: VAT paid abroad; booked gross, no Norwegian deduction (code 0);
 * - `reverse_charge`: a service bought from abroad; Norwegian VAT is computed and deducted at once
 *   (codes 86 / 88), so the net VAT effect is zero and both sides are reported.
 */
export const VAT_TREATMENTS = ['domestic', 'foreign_no_deduction', 'reverse_charge'] as const;
export type VatTreatment = (typeof VAT_TREATMENTS)[number];

/** The accounts an expense is credited to, by how it was paid (account codes from the company's chart). */
export interface PaymentAccounts {
  readonly bank: string;
  /** Null until the company names its card's account: no chart has a standard one. */
  readonly company_card: string | null;
  readonly employee: string;
}

/** Who a posting concerns, where the account's ledger asks for one (accounts payable, employee debt). */
export interface PostingParty {
  readonly kind: 'supplier' | 'employee';
  readonly name: string;
  /** The supplier's organisation number (9 digits). */
  readonly organizationNumber?: string | null;
  /** The party's id at the provider, once known (read back after booking). */
  readonly providerId?: string | null;
}

/**
 * One posting of a booking, in NOK øre: positive on the debit side, negative on the credit side; the
 * postings of one booking add up to zero. `vatCode` is the Norwegian standard (SAF-T) VAT code on the
 * line (`"1"`, `"11"`, `"86"`, `"0"`), null where the line carries none. `generated` marks the VAT
 * postings the provider makes itself from a line's VAT code.
 */
export interface Posting {
  readonly accountCode: string;
  readonly amount: number;
  readonly vatCode: string | null;
  readonly party: PostingParty | null;
  readonly description: string | null;
  readonly generated: boolean;
  /** On the accounts-payable posting of a supplier invoice. */
  readonly invoiceNumber?: string | null;
  readonly dueDate?: string | null;
  readonly kid?: string | null;
}

/**
 * The standard (SAF-T) VAT code of a purchase line with this rate and treatment, or null when the
 * pair has none (reverse charge exists at 25 % and 12 % only). A rate in hundredths of a percent.
 */
export function purchaseVatCode(rateHundredths: number, treatment: VatTreatment): string | null {
  switch (treatment) {
    case 'domestic':
      return DOMESTIC_INPUT_CODES[rateHundredths] ?? null;
    case 'foreign_no_deduction':
      return '0';
    case 'reverse_charge':
      return REVERSE_CHARGE_CODES[rateHundredths] ?? null;
  }
}

const DOMESTIC_INPUT_CODES: Readonly<Record<number, string>> = {
  2500: '1',
  1500: '11',
  1111: '12',
  1200: '13',
  0: '0',
};
const REVERSE_CHARGE_CODES: Readonly<Record<number, string>> = { 2500: '86', 1200: '88' };

/** Fiken's purchase `vatType` for each standard code the service books (Fiken's own mapping table). */
export const FIKEN_PURCHASE_VAT_TYPES: Readonly<Record<string, string>> = {
  '0': 'NONE',
  '1': 'HIGH',
  '11': 'MEDIUM',
  '12': 'RAW_FISH',
  '13': 'LOW',
  '86': 'HIGH_FOREIGN_SERVICE_DEDUCTIBLE',
  '88': 'LOW_FOREIGN_SERVICE_DEDUCTIBLE',
};

/** NS 4102 accounts the VAT postings go to: input VAT, and the output side of a reverse charge. */
export const INPUT_VAT_ACCOUNT = '2710';
export const REVERSE_CHARGE_OUTPUT_VAT_ACCOUNT = '2700';
/** NS 4102 accounts payable (leverandørgjeld): the credit side of a supplier invoice. */
export const ACCOUNTS_PAYABLE_ACCOUNT = '2400';

function roundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}

/**
 * The VAT inside a gross amount (øre) at a rate in hundredths of a percent, rounded half up to the
 * øre: 12 500 at 25 % → 2 500. The net is the gross less this.
 */
export function vatOfGross(grossOre: number, rateHundredths: number): number {
  return roundHalfUp(BigInt(grossOre) * BigInt(rateHundredths), BigInt(10_000 + rateHundredths));
}

/** The VAT on a net amount (øre), rounded half up: a reverse charge's VAT on the amount paid. */
export function vatOfNet(netOre: number, rateHundredths: number): number {
  return roundHalfUp(BigInt(netOre) * BigInt(rateHundredths), 10_000n);
}
