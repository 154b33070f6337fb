import { addDays, toEpochDay } from '../shared/dates';
import { splitGross } from '../shared/money';
import { Random } from '../shared/random';
import {
  BANK_ACCOUNT,
  EQUITY_ACCOUNT,
  EXPENSES,
  INPUT_VAT_ACCOUNT,
  OUTPUT_VAT_ACCOUNT,
  SUPPLIER_ACCOUNT,
  chartAccount,
  vatCode,
} from './chart';

/**
 * A provider-neutral seeded ledger, generated lazily: entry `i` of a company is a pure function of
 * (seed, provider stream, company index, i). Dates grow with `i`, so a date range maps to an index
 * range by binary search and a page costs only its own entries — the memory a 1 000 × 2 000 ledger
 * would need is never allocated.
 */

interface LedgerLine {
  account: number;
  /** Signed øre, debit positive. */
  amount: number;
  /** Gross øre of the line as entered (equals `amount` for lines without VAT). */
  gross: number;
  /** VAT code entered on the line (before the split), if any. */
  vat?: string;
  /** Row of the line; 0 marks system-generated VAT lines. */
  row: number;
  supplier?: number;
  customer?: number;
  description: string;
}

export interface LedgerEntry {
  /** Zero-based index of the entry within the company's seeded ledger. */
  index: number;
  date: string;
  description: string;
  lines: LedgerLine[];
  hasAttachment: boolean;
}

export interface LedgerShape {
  seed: number;
  stream: number;
  company: number;
  count: number;
  endDate: string;
  days: number;
}

const OPENING_BALANCE_ORE = 750_000_00;

export function entryDate(shape: LedgerShape, index: number): string {
  const start = toEpochDay(shape.endDate) - shape.days;
  const offset = Math.floor((index * shape.days) / Math.max(shape.count, 1));
  return addDays('1970-01-01', start + Math.min(offset, shape.days - 1));
}

/** The first index whose date is ≥ `date` (0…count). */
function firstIndexOnOrAfter(shape: LedgerShape, date: string): number {
  let lo = 0;
  let hi = shape.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entryDate(shape, mid) < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index range [from, to) of entries whose date is in [dateFrom, dateTo). */
export function indexRange(shape: LedgerShape, dateFrom?: string, dateTo?: string): { from: number; to: number } {
  const from = dateFrom ? firstIndexOnOrAfter(shape, dateFrom) : 0;
  const to = dateTo ? firstIndexOnOrAfter(shape, dateTo) : shape.count;
  return { from, to: Math.max(from, to) };
}

/** Splits an expense or sale into its lines, with the VAT line generated at row 0. */
function vatLines(
  account: number,
  gross: number,
  vat: string | undefined,
  row: number,
  description: string,
): LedgerLine[] {
  const code = vat ? vatCode(vat) : undefined;
  if (!code || code.percentage === 0) return [{ account, amount: gross, gross, vat, row, description }];
  const { net, vat: vatAmount } = splitGross(gross, code.percentage);
  const vatAccount = code.direction === 'output' ? OUTPUT_VAT_ACCOUNT : INPUT_VAT_ACCOUNT;
  return [
    { account, amount: net, gross, vat, row, description },
    { account: vatAccount, amount: vatAmount, gross: vatAmount, row: 0, description },
  ];
}

export function ledgerEntry(shape: LedgerShape, index: number): LedgerEntry {
  const date = entryDate(shape, index);
  if (index === 0) {
    return {
      index,
      date,
      description: 'Inngående balanse',
      hasAttachment: true,
      lines: [
        {
          account: BANK_ACCOUNT,
          amount: OPENING_BALANCE_ORE,
          gross: OPENING_BALANCE_ORE,
          row: 1,
          description: 'Inngående balanse',
        },
        {
          account: EQUITY_ACCOUNT,
          amount: -OPENING_BALANCE_ORE,
          gross: -OPENING_BALANCE_ORE,
          row: 2,
          description: 'Inngående balanse',
        },
      ],
    };
  }
  const random = Random.of(shape.seed, shape.stream, shape.company, index);
  const kind = random.next();
  if (kind < 0.8) {
    const expense = random.pick(EXPENSES);
    const description = random.pick(expense.descriptions);
    const gross = random.amountOre(expense.min, expense.max);
    const viaSupplier = kind >= 0.62;
    const supplier = viaSupplier ? random.int(0, 9) : undefined;
    const counter = viaSupplier ? SUPPLIER_ACCOUNT : BANK_ACCOUNT;
    return {
      index,
      date,
      description,
      hasAttachment: !random.chance(0.15),
      lines: [
        ...vatLines(expense.account, gross, chartAccount(expense.account).vat, 1, description),
        { account: counter, amount: -gross, gross: -gross, row: 2, supplier, description },
      ],
    };
  }
  if (kind < 0.95) {
    const customer = random.int(0, 9);
    const gross = random.amountOre(2_000, 80_000);
    const description = `Kontantsalg ${index}`;
    return {
      index,
      date,
      description,
      hasAttachment: !random.chance(0.03),
      lines: [
        { account: BANK_ACCOUNT, amount: gross, gross, row: 1, customer, description },
        ...vatLines(3000, -gross, '3', 2, description),
      ],
    };
  }
  const salary = random.amountOre(25_000, 60_000);
  return {
    index,
    date,
    description: 'Lønnsutbetaling',
    hasAttachment: !random.chance(0.1),
    lines: [
      { account: 5000, amount: salary, gross: salary, row: 1, description: 'Lønn' },
      { account: BANK_ACCOUNT, amount: -salary, gross: -salary, row: 2, description: 'Lønn' },
    ],
  };
}
