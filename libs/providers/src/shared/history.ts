import { ProviderError } from '@app/domain';

/** Where a history read stands: the phase (Tripletex reads two lists) and the position in it. */
export interface HistoryCursor {
  readonly phase: number;
  /** Tripletex: the index of the next element; Fiken: the next page. */
  readonly position: number;
}

export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return JSON.stringify(cursor);
}

export function decodeHistoryCursor(provider: 'tripletex' | 'fiken', text: string | null): HistoryCursor {
  if (text === null) return { phase: 0, position: 0 };
  try {
    const parsed = JSON.parse(text) as Partial<HistoryCursor>;
    if (Number.isInteger(parsed.phase) && Number.isInteger(parsed.position)) {
      return { phase: parsed.phase as number, position: parsed.position as number };
    }
  } catch {
    // Reported below.
  }
  throw new ProviderError(
    provider,
    'rejected',
    `the history cursor ${JSON.stringify(text)} is not one this service made`,
  );
}

/**
 * Expense accounts of the Norwegian standard chart (NS 4102): classes 4 (cost of goods), 6 and 7
 * (other operating costs), and 59xx (other personnel costs: staff food, gifts). The rest of class 5
 * is payroll, which no receipt is submitted for.
 */
export function isExpenseAccount(code: string): boolean {
  const number = Number(code.split(':')[0]);
  return (
    Number.isInteger(number) &&
    ((number >= 4000 && number < 5000) || (number >= 5900 && number < 6000) || (number >= 6000 && number < 8000))
  );
}

/**
 * Whether a voucher's postings make it a purchase or an expense (which needs a receipt): one of them
 * debits an expense account. `amount` is signed, debit positive; the VAT postings a provider
 * generates itself are left out by the caller.
 */
export function needsReceipt(postings: readonly { readonly account: string; readonly amount: number }[]): boolean {
  return postings.some((posting) => posting.amount > 0 && isExpenseAccount(posting.account));
}

/** A VAT percentage as the domain writes it: 25 → "25", 11.11 → "11.11". */
export function vatRateOf(percentage: number): string {
  return String(Math.round(percentage * 100) / 100);
}
