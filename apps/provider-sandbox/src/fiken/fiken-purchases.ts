import { INPUT_VAT_ACCOUNT } from '../seed/chart';
import { isIsoDate } from '../shared/dates';
import { FIKEN_VAT_TYPES, type FikenCompany } from './fiken-company';
import type { FikenJournalLine, FikenPurchase, FikenPurchaseLine } from './fiken-model';

const PURCHASE_FIELDS = new Set([
  'identifier',
  'date',
  'dueDate',
  'kind',
  'paid',
  'lines',
  'supplierId',
  'currency',
  'paymentAccount',
  'paymentDate',
  'kid',
  'projectId',
  'transactionId',
]);
const LINE_FIELDS = new Set([
  'description',
  'netPrice',
  'vat',
  'account',
  'vatType',
  'netPriceInCurrency',
  'vatInCurrency',
  'projectId',
  'comment',
]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type PurchaseResult = { ok: true; purchase: FikenPurchase } | { ok: false; message: string };

/**
 * Validates a `POST /purchases` body as Fiken does (400 with a message on the first problem:
 * unexpected fields, missing required ones, unknown accounts or VAT types, VAT that does not match
 * the net at the type's rate) and builds the purchase with its journal entry.
 */
export function buildPurchase(
  company: FikenCompany,
  body: unknown,
  ids: { purchaseId: number; journalEntryId: number; journalEntryNumber: number },
  createdAt: string,
): PurchaseResult {
  const fail = (message: string): PurchaseResult => ({ ok: false, message });
  if (!isObject(body)) return fail('Request body must be a JSON object');
  const unexpected = Object.keys(body).find((key) => !PURCHASE_FIELDS.has(key));
  if (unexpected) return fail(`Unrecognized field "${unexpected}"`);
  if (!isIsoDate(body.date)) return fail('date is required (yyyy-MM-dd)');
  if (body.dueDate !== undefined && !isIsoDate(body.dueDate)) return fail('dueDate must be yyyy-MM-dd');
  if (body.kind !== 'cash_purchase' && body.kind !== 'supplier')
    return fail("kind must be 'cash_purchase' or 'supplier'");
  if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency))
    return fail('currency is required (ISO 4217 code)');
  if (body.identifier !== undefined && typeof body.identifier !== 'string') return fail('identifier must be a string');
  if (body.paid !== undefined && typeof body.paid !== 'boolean') return fail('paid must be a boolean');
  if (!Array.isArray(body.lines) || body.lines.length === 0) return fail('A purchase must have at least one line');

  const lines: FikenPurchaseLine[] = [];
  for (const [i, raw] of body.lines.entries()) {
    if (!isObject(raw)) return fail(`lines[${i}] must be an object`);
    const unexpectedLine = Object.keys(raw).find((key) => !LINE_FIELDS.has(key));
    if (unexpectedLine) return fail(`Unrecognized field "lines[${i}].${unexpectedLine}"`);
    if (typeof raw.netPrice !== 'number' || !Number.isInteger(raw.netPrice))
      return fail(`lines[${i}].netPrice must be an integer amount in øre`);
    if (typeof raw.vat !== 'number' || !Number.isInteger(raw.vat))
      return fail(`lines[${i}].vat must be an integer amount in øre`);
    if (typeof raw.account !== 'string' || !company.hasAccount(raw.account))
      return fail(`lines[${i}].account: unknown account '${String(raw.account)}'`);
    if (typeof raw.vatType !== 'string' || !(raw.vatType in FIKEN_VAT_TYPES))
      return fail(`lines[${i}].vatType: unknown VAT type '${String(raw.vatType)}'`);
    const rate = FIKEN_VAT_TYPES[raw.vatType].rate;
    if (rate !== null && Math.abs(raw.vat - raw.netPrice * rate) > 1) {
      return fail(`lines[${i}].vat (${raw.vat}) does not match netPrice ${raw.netPrice} at VAT type ${raw.vatType}`);
    }
    lines.push({
      description: typeof raw.description === 'string' ? raw.description : '',
      netPrice: raw.netPrice,
      vat: raw.vat,
      account: raw.account,
      vatType: raw.vatType,
      ...(typeof raw.comment === 'string' ? { comment: raw.comment } : {}),
    });
  }

  const paid = body.kind === 'cash_purchase' ? true : body.paid === true;
  const paymentAccount = typeof body.paymentAccount === 'string' ? body.paymentAccount : undefined;
  if (paid && !paymentAccount) return fail('paymentAccount is required for a paid purchase');
  if (paymentAccount !== undefined && !company.isBankAccount(paymentAccount)) {
    return fail(`paymentAccount: '${paymentAccount}' is not a bank account (e.g. 1920:10001)`);
  }
  let supplierAccount: string | undefined;
  if (body.kind === 'supplier') {
    const supplier = company.suppliers.find((s) => s.contactId === body.supplierId);
    if (!supplier) return fail('supplierId is required for kind supplier and must name a supplier contact');
    supplierAccount = supplier.account;
  }

  const gross = lines.reduce((sum, line) => sum + line.netPrice + line.vat, 0);
  const journalLines: FikenJournalLine[] = [];
  for (const line of lines) {
    const vatCode = FIKEN_VAT_TYPES[line.vatType].vatCode;
    journalLines.push({ amount: line.netPrice, account: line.account, ...(vatCode ? { vatCode } : {}) });
    if (line.vat !== 0) journalLines.push({ amount: line.vat, account: String(INPUT_VAT_ACCOUNT) });
  }
  if (supplierAccount) {
    journalLines.push({ amount: -gross, account: supplierAccount });
    if (paid && paymentAccount)
      journalLines.push({ amount: gross, account: supplierAccount }, { amount: -gross, account: paymentAccount });
  } else if (paymentAccount) {
    journalLines.push({ amount: -gross, account: paymentAccount });
  }
  const date = body.date as string;
  const description = lines[0].description || (typeof body.identifier === 'string' ? body.identifier : 'Kjøp');
  return {
    ok: true,
    purchase: {
      purchaseId: ids.purchaseId,
      transactionId: ids.journalEntryId + 1_000_000_000_000,
      identifier: typeof body.identifier === 'string' ? body.identifier : undefined,
      date,
      dueDate: typeof body.dueDate === 'string' ? body.dueDate : undefined,
      kind: body.kind,
      paid,
      lines,
      supplierId: typeof body.supplierId === 'number' ? body.supplierId : undefined,
      currency: body.currency,
      paymentAccount,
      paymentDate: paid ? (typeof body.paymentDate === 'string' ? body.paymentDate : date) : undefined,
      kid: typeof body.kid === 'string' ? body.kid : undefined,
      purchaseAttachments: [],
      createdAt,
      journalEntry: {
        journalEntryId: ids.journalEntryId,
        journalEntryNumber: ids.journalEntryNumber,
        transactionId: ids.journalEntryId + 1_000_000_000_000,
        date,
        description,
        lines: journalLines,
        attachments: [],
      },
    },
  };
}

/** A purchase as `GET /purchases/{id}` returns it. */
export function purchaseView(company: FikenCompany, purchase: FikenPurchase): Record<string, unknown> {
  const supplier =
    purchase.supplierId !== undefined ? company.suppliers.find((s) => s.contactId === purchase.supplierId) : undefined;
  const gross = purchase.lines.reduce((sum, line) => sum + line.netPrice + line.vat, 0);
  return {
    purchaseId: purchase.purchaseId,
    transactionId: purchase.transactionId,
    identifier: purchase.identifier,
    date: purchase.date,
    dueDate: purchase.dueDate,
    kind: purchase.kind,
    paid: purchase.paid,
    lines: purchase.lines,
    supplier: supplier
      ? {
          contactId: supplier.contactId,
          name: supplier.name,
          organizationNumber: supplier.organizationNumber,
          supplierNumber: supplier.supplierNumber,
          supplier: true,
        }
      : undefined,
    currency: purchase.currency,
    paymentAccount: purchase.paymentAccount,
    paymentDate: purchase.paymentDate,
    payments: purchase.paid
      ? [
          {
            paymentId: purchase.purchaseId + 1,
            date: purchase.paymentDate,
            account: purchase.paymentAccount,
            amount: gross,
            currency: purchase.currency,
          },
        ]
      : [],
    purchaseAttachments: purchase.purchaseAttachments,
    kid: purchase.kid,
    deleted: false,
    settled: purchase.paid,
  };
}
