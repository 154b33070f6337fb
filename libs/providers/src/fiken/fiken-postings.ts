import {
  ACCOUNTS_PAYABLE_ACCOUNT,
  INPUT_VAT_ACCOUNT,
  REVERSE_CHARGE_OUTPUT_VAT_ACCOUNT,
  type Posting,
  type PostingParty,
} from '@app/domain';
import { asArray, asNumber, asObject, asString, Json } from '../shared/json';

/** NS 4102 2910: what the company owes its employees for their outlays (a payment account in Fiken). */
const EMPLOYEE_DEBT_ACCOUNT = '2910';

/** The employee an outlay's first line names: `… (utlegg Kari Nordmann)`. */
const OUTLAY = /\(utlegg ([^()]+)\)\s*$/;

/** The 4-digit account of a Fiken code: `2400:20001` → `2400`. */
function accountNumber(code: string): string {
  return code.split(':')[0];
}

/**
 * A purchase's postings as Fiken's ledger holds them: the lines of the journal entries of its
 * transaction (GET /transactions/{transactionId}), in NOK øre, debit positive. The expense lines
 * carry the standard VAT code Fiken put on them; the lines on 2710 / 2700 are the VAT Fiken
 * generated from the lines' VAT types. The accounts-payable line names the supplier, the invoice
 * number (the purchase's identifier) and the due date; a line on 2910 names the employee (its
 * sub-ledger's name, else the outlay's text). The KID is left out, not null: Fiken's definition
 * declares `purchaseResult.kid` writeOnly, so its read never returns what `purchaseRequest.kid`
 * wrote, and postingDifferences does not compare it.
 */
export function postingsOfPurchase(
  purchase: Json,
  entries: readonly Json[],
  accountNames: Map<string, string>,
): Posting[] {
  const orderLines = asArray(purchase.lines).map(asObject);
  const used = new Set<number>();
  const descriptionFor = (account: string): string | null => {
    const index = orderLines.findIndex((line, i) => !used.has(i) && asString(line.account) === account);
    if (index < 0) return null;
    used.add(index);
    return asString(orderLines[index].description) || null;
  };
  const supplier = purchase.supplier ? asObject(purchase.supplier) : undefined;
  const outlayName = OUTLAY.exec(asString(orderLines[0]?.description ?? ''))?.[1]?.trim();
  const postings: Posting[] = [];
  for (const entry of entries) {
    for (const raw of asArray(entry.lines)) {
      const line = asObject(raw);
      const account = asString(line.account);
      const number = accountNumber(account);
      const amount = Math.round(asNumber(line.amount));
      const vatCode = line.vatCode === undefined || line.vatCode === null ? null : String(line.vatCode as string);
      const generated =
        vatCode === null && (number === INPUT_VAT_ACCOUNT || number === REVERSE_CHARGE_OUTPUT_VAT_ACCOUNT);
      let party: PostingParty | null = null;
      let extra: Pick<Posting, 'invoiceNumber' | 'dueDate'> = {};
      if (number === ACCOUNTS_PAYABLE_ACCOUNT && supplier) {
        party = {
          kind: 'supplier',
          name: asString(supplier.name),
          organizationNumber: asString(supplier.organizationNumber) || null,
          providerId: supplier.contactId === undefined ? null : String(supplier.contactId as number),
        };
        extra = {
          invoiceNumber: asString(purchase.identifier) || null,
          dueDate: asString(purchase.dueDate) || null,
        };
      } else if (number === EMPLOYEE_DEBT_ACCOUNT) {
        const name = account.includes(':') ? accountNames.get(account) : outlayName;
        party = name ? { kind: 'employee', name, providerId: null } : null;
      }
      const isExpenseLine = amount > 0 && !generated && vatCode !== null;
      postings.push({
        accountCode: account,
        amount,
        vatCode,
        party,
        description: isExpenseLine ? descriptionFor(account) : null,
        generated,
        ...extra,
      });
    }
  }
  return postings;
}
