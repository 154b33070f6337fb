/**
 * A result account of the Norwegian standard chart (NS 4102): classes 3 to 8 (income, costs,
 * financial items, taxes, the year's result). Classes 1 and 2 are the balance sheet (assets, equity
 * and liabilities).
 */
export function isResultAccount(code: string): boolean {
  const number = Number(code.split(':')[0]);
  return Number.isInteger(number) && number >= 3000 && number < 9000;
}

/** The last day of the accounting year before `date`'s (accounting years are calendar years). */
export function endOfPreviousYear(date: string): string {
  return `${Number(date.slice(0, 4)) - 1}-12-31`;
}
