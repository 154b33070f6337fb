import { PAID_WITH, VAT_TREATMENTS, type PaidWith, type VatTreatment } from '../bookkeeping/bookkeeping';
import { isBankAccountNumber, isKid, isOrganizationNumber } from '../values/norwegian-numbers';
import { parseAccountCode } from '../values/account-code';
import { parseAccountingDate, type AccountingDate } from '../values/accounting-date';
import { FieldErrorCollector, invalidField } from '../values/field-errors';
import { formatMoney, parsePositiveMoney } from '../values/money';
import { parseVatRate } from '../values/vat-rate';
import { BOOKKEEPING_CURRENCY, type ExpenseDetails, type ExpenseLine, type SupplierDetails } from './expense-details';

/**
 * What a reviewer may change when approving (docs/api.md §4.2): the account and VAT rate (of a
 * single-line proposal), the VAT treatment, how an expense was paid, the lines (adding up to the
 * amount), a supplier invoice's supplier and due date, the department. Values are canonical.
 */
export interface Corrections {
  readonly accountCode?: string;
  readonly vatRate?: string;
  readonly vatTreatment?: VatTreatment;
  readonly paidWith?: PaidWith;
  readonly lines?: readonly ExpenseLine[];
  readonly supplier?: SupplierDetails;
  readonly dueDate?: AccountingDate;
  /** null takes the department off. */
  readonly departmentId?: string | null;
}

/** The wire shape of corrections; every key optional. */
export interface CorrectionsInput {
  accountCode?: unknown;
  vatRate?: unknown;
  vatTreatment?: unknown;
  paidWith?: unknown;
  lines?: unknown;
  supplier?: unknown;
  dueDate?: unknown;
  departmentId?: unknown;
}

const MAX_LINES = 20;
const MAX_TEXT = 200;
const MAX_DESCRIPTION = 1000;
const F = 'corrections';

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') invalidField(field, 'must be a non-empty string');
  if (value.trim().length > max) invalidField(field, `must be at most ${max} characters`);
  return value.trim();
}

function parseLines(value: unknown, errors: FieldErrorCollector): ExpenseLine[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LINES) {
    errors.add(`${F}.lines`, `${F}.lines must be an array of 1 to ${MAX_LINES} lines`);
    return undefined;
  }
  const lines: ExpenseLine[] = [];
  value.forEach((raw: unknown, i) => {
    const field = `${F}.lines.${i}`;
    const line = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const accountCode = errors.check(() => parseAccountCode(line.accountCode, `${field}.accountCode`));
    const vatRate = errors.check(() => parseVatRate(line.vatRate, `${field}.vatRate`));
    const amount = errors.check(() => parsePositiveMoney(line.amount, `${field}.amount`));
    const description =
      line.description === undefined || line.description === null
        ? null
        : errors.check(() => text(line.description, `${field}.description`, MAX_DESCRIPTION));
    if (accountCode !== undefined && vatRate !== undefined && amount !== undefined && description !== undefined) {
      lines.push({ accountCode, vatRate, amount, description });
    }
  });
  return lines.length === value.length ? lines : undefined;
}

function parseSupplier(value: unknown, errors: FieldErrorCollector): SupplierDetails | undefined {
  const field = `${F}.supplier`;
  if (typeof value !== 'object' || value === null) {
    errors.add(field, `${field} must be an object { name, organizationNumber, bankAccount?, kid? }`);
    return undefined;
  }
  const given = value as Record<string, unknown>;
  const name = errors.check(() => text(given.name, `${field}.name`, MAX_TEXT));
  const organizationNumber = errors.check(() => {
    if (typeof given.organizationNumber !== 'string' || !isOrganizationNumber(given.organizationNumber)) {
      invalidField(`${field}.organizationNumber`, 'must be a Norwegian organisation number: 9 digits, mod-11 checked');
    }
    return given.organizationNumber;
  });
  const optional = (key: 'bankAccount' | 'kid', valid: (v: string) => boolean, what: string) =>
    errors.check(() => {
      const v = given[key];
      if (v === undefined || v === null) return null;
      if (typeof v !== 'string' || !valid(v)) invalidField(`${field}.${key}`, what);
      return v;
    });
  const bankAccount = optional('bankAccount', isBankAccountNumber, 'must be a bank account: 11 digits, mod-11 checked');
  const kid = optional('kid', isKid, 'must be a KID: 2–25 digits with a mod-10 or mod-11 check digit');
  if (name === undefined || organizationNumber === undefined || bankAccount === undefined || kid === undefined) {
    return undefined;
  }
  return { name, organizationNumber, bankAccount, kid };
}

/** Validates and canonicalises corrections, every bad key reported at once; null when nothing is corrected. */
export function parseCorrections(corrections: CorrectionsInput | null | undefined): Corrections | null {
  if (!corrections) return null;
  const errors = new FieldErrorCollector();
  const result: { -readonly [K in keyof Corrections]: Corrections[K] } = {};
  const c = corrections;
  if (c.accountCode !== undefined)
    result.accountCode = errors.check(() => parseAccountCode(c.accountCode, `${F}.accountCode`));
  if (c.vatRate !== undefined) result.vatRate = errors.check(() => parseVatRate(c.vatRate, `${F}.vatRate`));
  if (c.vatTreatment !== undefined) {
    if ((VAT_TREATMENTS as readonly unknown[]).includes(c.vatTreatment))
      result.vatTreatment = c.vatTreatment as VatTreatment;
    else errors.add(`${F}.vatTreatment`, `${F}.vatTreatment must be one of ${VAT_TREATMENTS.join(', ')}`);
  }
  if (c.paidWith !== undefined) {
    if ((PAID_WITH as readonly unknown[]).includes(c.paidWith)) result.paidWith = c.paidWith as PaidWith;
    else errors.add(`${F}.paidWith`, `${F}.paidWith must be one of ${PAID_WITH.join(', ')}`);
  }
  if (c.lines !== undefined) result.lines = parseLines(c.lines, errors);
  if (c.supplier !== undefined) result.supplier = parseSupplier(c.supplier, errors);
  if (c.dueDate !== undefined) result.dueDate = errors.check(() => parseAccountingDate(c.dueDate, `${F}.dueDate`));
  if (c.departmentId !== undefined) {
    result.departmentId = errors.check(() => {
      if (c.departmentId === null) return null;
      if (typeof c.departmentId !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(c.departmentId)) {
        invalidField(`${F}.departmentId`, 'must be a department id of the company, or null');
      }
      return c.departmentId;
    });
  }
  errors.throwIfAny('the corrections are invalid');
  const given = Object.entries(result).filter(([, value]) => value !== undefined);
  return given.length === 0 ? null : (Object.fromEntries(given) as Corrections);
}

/** The largest line (the first of equals): what a proposal shows as its account and VAT rate. */
function mainLine(lines: readonly ExpenseLine[]): ExpenseLine {
  return lines.reduce((main, line) => (line.amount > main.amount ? line : main), lines[0]);
}

/**
 * The details with the corrections applied. An account or rate corrects a single-line proposal's
 * line; a proposal of several lines is corrected by `lines`, which add up to its amount. How it was
 * paid applies to an expense, supplier and due date to a supplier invoice; a reverse charge only to
 * a purchase in a foreign currency. Refused corrections name their field (400 validation_failed).
 */
export function applyCorrections<T extends ExpenseDetails>(details: T, corrections: Corrections | null): T {
  if (!corrections) return details;
  const errors = new FieldErrorCollector();
  let lines = details.lines;
  if (corrections.lines) {
    if (corrections.accountCode !== undefined || corrections.vatRate !== undefined) {
      errors.add(`${F}.lines`, `${F}.lines replaces the lines: give the account and VAT rate on each line instead`);
    }
    const total = corrections.lines.reduce((sum, line) => sum + line.amount, 0);
    if (total !== details.amount) {
      errors.add(`${F}.lines`, `${F}.lines must add up to the proposal's amount exactly`);
    }
    lines = corrections.lines;
  } else if (corrections.accountCode !== undefined || corrections.vatRate !== undefined) {
    if (details.lines.length > 1) {
      errors.add(
        corrections.accountCode !== undefined ? `${F}.accountCode` : `${F}.vatRate`,
        'the proposal has several lines: correct them with corrections.lines',
      );
    } else {
      lines = details.lines.map((line) => ({
        ...line,
        accountCode: corrections.accountCode ?? line.accountCode,
        vatRate: corrections.vatRate ?? line.vatRate,
      }));
    }
  }
  if (corrections.paidWith !== undefined && details.kind !== 'expense') {
    errors.add(`${F}.paidWith`, `${F}.paidWith applies to an expense; a supplier invoice is paid later`);
  }
  for (const key of ['supplier', 'dueDate'] as const) {
    if (corrections[key] !== undefined && details.kind !== 'supplier_invoice') {
      errors.add(`${F}.${key}`, `${F}.${key} applies to a supplier invoice`);
    }
  }
  const dueDate = corrections.dueDate ?? details.dueDate;
  if (corrections.dueDate !== undefined && dueDate !== null && dueDate < details.date) {
    errors.add(`${F}.dueDate`, `${F}.dueDate must be on or after the date ${details.date}`);
  }
  const vatTreatment = corrections.vatTreatment ?? details.vatTreatment;
  if (corrections.vatTreatment === 'reverse_charge' && details.currency === BOOKKEEPING_CURRENCY) {
    errors.add(
      `${F}.vatTreatment`,
      `${F}.vatTreatment reverse_charge applies only to a purchase in a foreign currency`,
    );
  }
  errors.throwIfAny('the corrections are invalid');
  const main = mainLine(lines);
  return {
    ...details,
    lines,
    accountCode: main.accountCode,
    vatRate: main.vatRate,
    vatTreatment,
    paidWith: corrections.paidWith ?? details.paidWith,
    supplier: corrections.supplier ?? details.supplier,
    dueDate,
    departmentId: corrections.departmentId !== undefined ? corrections.departmentId : details.departmentId,
  };
}

/** Corrections as the wire and the Approved event show them: line amounts as decimal strings. */
export type CorrectionsJson = Omit<Corrections, 'lines'> & {
  readonly lines?: readonly {
    readonly accountCode: string;
    readonly vatRate: string;
    readonly amount: string;
    readonly description: string | null;
  }[];
};

export function correctionsJson(corrections: Corrections | null): CorrectionsJson | null {
  if (!corrections) return null;
  const { lines, ...rest } = corrections;
  return {
    ...rest,
    ...(rest.supplier && { supplier: { ...rest.supplier } }),
    ...(lines && { lines: lines.map((line) => ({ ...line, amount: formatMoney(line.amount) })) }),
  };
}
