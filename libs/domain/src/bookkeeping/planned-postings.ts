import type { ExpenseDetails } from '../proposal/expense-details';
import { vatRateHundredths } from '../values/vat-rate';
import {
  INPUT_VAT_ACCOUNT,
  REVERSE_CHARGE_OUTPUT_VAT_ACCOUNT,
  vatOfGross,
  vatOfNet,
  type Posting,
  type PostingParty,
} from './bookkeeping';
import { bookingLinesOf } from './booking-lines';

/** The employee an out-of-pocket expense is owed to (the submitter's mapped provider employee). */
export interface PostingEmployee {
  readonly name: string;
  readonly providerId: string | null;
}

/**
 * The postings a proposal will make, in NOK øre (debit +, credit −), as docs/bookkeeping.md shows
 * them: per line its expense posting with the line's VAT code and the VAT postings the provider
 * generates from that code, then one credit posting for the total.
 *
 * - domestic, code 1/11/12/13: expense +(G − V), 2710 +V (V = vatOfGross(G, rate)); code 0: expense +G;
 * - foreign_no_deduction: expense +G, code 0, no VAT posting;
 * - reverse_charge (86/88): expense +A, 2710 +V, 2700 −V (V = vatOfNet(A, rate));
 * - credit: the payment account (party: the employee for paidWith employee), or 2400 with the
 *   supplier, invoice number, due date and KID for a supplier invoice.
 *
 * Generated VAT postings carry the code of the line they come from. Amounts are the lines' NOK
 * shares (bookingLinesOf), so the postings add up to zero.
 */
export function plannedPostings(
  details: ExpenseDetails,
  creditAccount: string,
  employee: PostingEmployee | null = null,
): Posting[] {
  const postings: Posting[] = [];
  let total = 0;
  for (const line of bookingLinesOf(details)) {
    const gross = line.grossAmountNok;
    const rate = vatRateHundredths(line.vatRate);
    const description = line.description ?? details.description;
    total += gross;
    const expense = (amount: number): Posting => ({
      accountCode: line.accountCode,
      amount,
      vatCode: line.vatCode,
      party: null,
      description,
      generated: false,
    });
    const vat = (accountCode: string, amount: number): Posting => ({
      accountCode,
      amount,
      vatCode: line.vatCode,
      party: null,
      description,
      generated: true,
    });
    if (details.vatTreatment === 'reverse_charge') {
      const v = vatOfNet(gross, rate);
      postings.push(expense(gross), vat(INPUT_VAT_ACCOUNT, v), vat(REVERSE_CHARGE_OUTPUT_VAT_ACCOUNT, -v));
    } else if (details.vatTreatment === 'domestic' && rate !== 0 && line.vatCode !== null) {
      const v = vatOfGross(gross, rate);
      postings.push(expense(gross - v), vat(INPUT_VAT_ACCOUNT, v));
    } else {
      postings.push(expense(gross));
    }
  }
  postings.push(creditPosting(details, creditAccount, -total, employee));
  return postings;
}

function creditPosting(
  details: ExpenseDetails,
  accountCode: string,
  amount: number,
  employee: PostingEmployee | null,
): Posting {
  if (details.kind === 'supplier_invoice' && details.supplier) {
    return {
      accountCode,
      amount,
      vatCode: null,
      party: { kind: 'supplier', name: details.supplier.name, organizationNumber: details.supplier.organizationNumber },
      description: details.description ?? details.merchant,
      generated: false,
      invoiceNumber: details.invoiceNumber,
      dueDate: details.dueDate,
      kid: details.supplier.kid,
    };
  }
  const party: PostingParty | null =
    details.paidWith === 'employee' && employee
      ? { kind: 'employee', name: employee.name, providerId: employee.providerId }
      : null;
  return {
    accountCode,
    amount,
    vatCode: null,
    party,
    description: details.description ?? details.merchant,
    generated: false,
  };
}

/**
 * How the postings read back from the provider differ from the planned ones, as sentences (empty
 * when they agree). Compared per account, VAT code (on the postings a line makes, not on the VAT
 * postings generated from it, which providers label differently; code 0 and none are the same) and
 * party kind, with amounts summed (a booked sub-ledger such as `1920:10001` counts as the planned
 * `1920`: plannedAccountOf): a provider may merge the VAT postings of several lines into one. Descriptions are not compared.
 * A supplier invoice's accounts-payable posting is also compared on its invoice number, due date
 * and KID, each where the provider's read returns it (a field the booked posting leaves out —
 * undefined, not null — is one the provider's read does not give back).
 */
export function postingDifferences(planned: readonly Posting[], booked: readonly Posting[]): string[] {
  const plannedAccounts = new Set(planned.map((posting) => posting.accountCode));
  const sums = (postings: readonly Posting[], account: (code: string) => string): Map<string, number> => {
    const map = new Map<string, number>();
    for (const posting of postings) {
      const key = postingKey({ ...posting, accountCode: account(posting.accountCode) });
      map.set(key, (map.get(key) ?? 0) + posting.amount);
    }
    return map;
  };
  const want = sums(planned, (code) => code);
  const got = sums(booked, (code) => plannedAccountOf(code, plannedAccounts));
  const differences: string[] = [];
  for (const key of new Set([...want.keys(), ...got.keys()])) {
    const a = want.get(key) ?? 0;
    const b = got.get(key) ?? 0;
    if (a !== b) differences.push(`${key}: planned ${a} øre, booked ${b} øre`);
  }
  return [...differences, ...invoiceDifferences(planned, booked, plannedAccounts)];
}

const INVOICE_FIELDS = [
  ['invoiceNumber', 'invoice number'],
  ['dueDate', 'due date'],
  ['kid', 'KID'],
] as const;

/** The invoice number, due date and KID of the planned supplier postings against the booked ones. */
function invoiceDifferences(
  planned: readonly Posting[],
  booked: readonly Posting[],
  plannedAccounts: ReadonlySet<string>,
): string[] {
  const differences: string[] = [];
  for (const want of planned.filter((posting) => posting.party?.kind === 'supplier')) {
    const got = booked.find(
      (posting) =>
        posting.party?.kind === 'supplier' &&
        plannedAccountOf(posting.accountCode, plannedAccounts) === want.accountCode,
    );
    // A missing posting is an amount difference, reported above.
    if (!got) continue;
    for (const [field, label] of INVOICE_FIELDS) {
      if (got[field] === undefined) continue;
      const [a, b] = [want[field] ?? null, got[field] ?? null];
      if (a !== b) {
        differences.push(
          `account ${want.accountCode}, supplier: ${label} planned ${a ?? 'none'}, booked ${b ?? 'none'}`,
        );
      }
    }
  }
  return differences;
}

/**
 * The account a booked posting is compared on: its own code when the plan names it, else — for a
 * sub-ledger code such as Fiken's bank account `1920:10001` — the account number before the colon,
 * when the plan names that account without a sub-ledger. A plan that names another sub-ledger
 * (`1920:10002`) still differs.
 */
function plannedAccountOf(code: string, plannedAccounts: ReadonlySet<string>): string {
  if (plannedAccounts.has(code)) return code;
  const account = code.split(':')[0];
  return plannedAccounts.has(account) ? account : code;
}

function postingKey(posting: Posting): string {
  const parts = [`account ${posting.accountCode}`];
  if (!posting.generated && posting.vatCode !== null && posting.vatCode !== '0')
    parts.push(`VAT code ${posting.vatCode}`);
  if (posting.party) parts.push(posting.party.kind);
  return parts.join(', ');
}
