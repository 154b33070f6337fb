import { INPUT_VAT_ACCOUNT, OUTPUT_VAT_ACCOUNT } from '../seed/chart';
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
  'paymentAmountInNok',
  'kid',
  'projectId',
]);
/** `orderLine`'s properties in the definition. */
const LINE_FIELDS = new Set([
  'description',
  'netPrice',
  'vat',
  'account',
  'vatType',
  'netPriceInCurrency',
  'vatInCurrency',
  'projectId',
]);
/** `orderLine.description` has `maxLength: 200`. */
const MAX_LINE_DESCRIPTION = 200;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** VAT on a net amount (øre) at a rate in hundredths of a percent, rounded half up. */
function vatOfNet(net: number, rateHundredths: number): number {
  return Math.floor((net * rateHundredths * 2 + 10_000) / 20_000);
}

export type PurchaseResult = { ok: true; purchase: FikenPurchase } | { ok: false; message: string };

/**
 * Validates a `POST /purchases` body as Fiken does (400 with a message on the first problem:
 * unexpected fields, missing required ones — `paid` among them —, a line description over 200
 * characters, unknown accounts, a VAT type that is for sales only, VAT that does not match the net
 * at the type's rate, a foreign-currency purchase without in-currency prices or without
 * `paymentAmountInNok`) and builds the purchase with its journal entry (in NOK).
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
  if (typeof body.paid !== 'boolean') return fail('paid is required (true or false)');
  if (!Array.isArray(body.lines) || body.lines.length === 0) return fail('A purchase must have at least one line');
  const foreign = body.currency !== 'NOK';

  const lines: FikenPurchaseLine[] = [];
  for (const [i, raw] of body.lines.entries()) {
    if (!isObject(raw)) return fail(`lines[${i}] must be an object`);
    const unexpectedLine = Object.keys(raw).find((key) => !LINE_FIELDS.has(key));
    if (unexpectedLine) return fail(`Unrecognized field "lines[${i}].${unexpectedLine}"`);
    if (typeof raw.description !== 'string') return fail(`lines[${i}].description is required`);
    if (raw.description.length > MAX_LINE_DESCRIPTION)
      return fail(`lines[${i}].description: size must be between 0 and ${MAX_LINE_DESCRIPTION}`);
    const price = foreign ? 'netPriceInCurrency' : 'netPrice';
    const vatField = foreign ? 'vatInCurrency' : 'vat';
    if (!isAmount(raw[price]))
      return fail(
        foreign
          ? `lines[${i}].netPriceInCurrency is required for a purchase in ${body.currency} (amount in cents)`
          : `lines[${i}].netPrice must be an integer amount in øre`,
      );
    const vatAmount = raw[vatField] ?? 0;
    if (!isAmount(vatAmount)) return fail(`lines[${i}].${vatField} must be an integer amount in cents`);
    if (typeof raw.account !== 'string' || !company.hasAccount(raw.account))
      return fail(`lines[${i}].account: unknown account '${String(raw.account)}'`);
    if (company.isInactive(raw.account)) return fail(`lines[${i}].account: account '${raw.account}' is inactive`);
    if (typeof raw.vatType !== 'string' || !(raw.vatType in FIKEN_VAT_TYPES))
      return fail(`lines[${i}].vatType: unknown VAT type '${String(raw.vatType)}'`);
    const vatType = FIKEN_VAT_TYPES[raw.vatType];
    if (!vatType.purchases) return fail(`lines[${i}].vatType: '${raw.vatType}' is not valid for purchases`);
    const net = raw[price] as number;
    if (vatType.reverseCharge !== undefined && vatAmount !== 0) {
      return fail(
        `lines[${i}].${vatField} must be 0 for ${raw.vatType}: Fiken computes the VAT of a service bought abroad`,
      );
    }
    if (vatType.rate !== null && Math.abs(vatAmount - net * vatType.rate) > 1) {
      return fail(`lines[${i}].${vatField} (${vatAmount}) does not match ${price} ${net} at VAT type ${raw.vatType}`);
    }
    lines.push({
      description: raw.description,
      netPrice: net,
      vat: vatAmount,
      account: raw.account,
      vatType: raw.vatType,
      ...(foreign ? { netPriceInCurrency: net, vatInCurrency: vatAmount } : {}),
    });
  }

  const paid = body.paid;
  if (body.kind === 'cash_purchase' && !paid) return fail('A cash purchase is paid (paid: true)');
  const paymentAccount = typeof body.paymentAccount === 'string' ? body.paymentAccount : undefined;
  if (paid && !paymentAccount) return fail('paymentAccount is required for a paid purchase');
  if (
    paymentAccount !== undefined &&
    !company.isBankAccount(paymentAccount) &&
    !company.isEmployeeDebtAccount(paymentAccount)
  ) {
    return fail(
      `paymentAccount: '${paymentAccount}' is not a bank account (e.g. 1920:10001) or the employees' account (2910)`,
    );
  }
  if (paymentAccount !== undefined && company.isInactive(paymentAccount)) {
    return fail(`paymentAccount: bank account '${paymentAccount}' is inactive`);
  }
  if (body.kid !== undefined && (typeof body.kid !== 'string' || !/^\d{2,25}$/.test(body.kid))) {
    return fail('kid must be a Norwegian KID number of 2 to 25 digits');
  }
  let paymentAmountInNok: number | undefined;
  if (body.paymentAmountInNok !== undefined) {
    if (!isAmount(body.paymentAmountInNok) || body.paymentAmountInNok <= 0)
      return fail('paymentAmountInNok must be a positive amount in øre');
    paymentAmountInNok = body.paymentAmountInNok;
  }
  if (foreign && paid && paymentAmountInNok === undefined) {
    return fail(`paymentAmountInNok is required for a paid purchase in ${body.currency}`);
  }
  let supplierAccount: string | undefined;
  if (body.kind === 'supplier') {
    const supplier = company.suppliers.find((s) => s.contactId === body.supplierId);
    if (!supplier) return fail('supplierId is required for kind supplier and must name a supplier contact');
    if (supplier.inactive) return fail(`supplierId: contact ${supplier.contactId} is inactive`);
    if (typeof body.dueDate !== 'string') return fail('dueDate is required for kind supplier');
    if (body.dueDate < (body.date as string)) return fail('dueDate must not be before date');
    supplierAccount = supplier.account;
  }

  // The ledger is kept in NOK: a foreign purchase is booked at the NOK amount paid, line by line in proportion.
  const inCurrency = lines.reduce((sum, line) => sum + line.netPrice + line.vat, 0);
  const gross = foreign && paymentAmountInNok !== undefined ? paymentAmountInNok : inCurrency;
  const journalLines: FikenJournalLine[] = [];
  let allocated = 0;
  lines.forEach((line, i) => {
    const lineGross =
      i === lines.length - 1
        ? gross - allocated
        : Math.round(((line.netPrice + line.vat) * gross) / Math.max(inCurrency, 1));
    allocated += lineGross;
    const vat =
      inCurrency === gross ? line.vat : Math.round((line.vat * lineGross) / Math.max(line.netPrice + line.vat, 1));
    const type = FIKEN_VAT_TYPES[line.vatType];
    const vatCode = type.vatCode;
    journalLines.push({ amount: lineGross - vat, account: line.account, ...(vatCode ? { vatCode } : {}) });
    if (vat !== 0) journalLines.push({ amount: vat, account: String(INPUT_VAT_ACCOUNT) });
    if (type.reverseCharge !== undefined) {
      // Reverse charge: the VAT on the amount paid, deducted as input VAT and owed as output VAT.
      const computed = vatOfNet(lineGross, type.reverseCharge);
      if (computed !== 0)
        journalLines.push(
          { amount: computed, account: String(INPUT_VAT_ACCOUNT) },
          { amount: -computed, account: String(OUTPUT_VAT_ACCOUNT) },
        );
    }
  });
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
      paymentAmountInNok,
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
    payments: purchase.paid
      ? [
          {
            paymentId: purchase.purchaseId + 1,
            date: purchase.paymentDate,
            account: purchase.paymentAccount,
            amount: gross,
            ...(purchase.paymentAmountInNok !== undefined ? { amountInNok: purchase.paymentAmountInNok } : {}),
            currency: purchase.currency,
          },
        ]
      : [],
    purchaseAttachments: purchase.purchaseAttachments,
    deleted: false,
    settled: purchase.paid,
    ...(purchase.paid ? { settledDate: purchase.paymentDate } : {}),
  };
}
