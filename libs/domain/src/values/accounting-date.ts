import { invalidField } from './field-errors';

/** A calendar date `YYYY-MM-DD` without time zone: the date a booking belongs to. */
export type AccountingDate = string;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function parseAccountingDate(text: unknown, field = 'date'): AccountingDate {
  const match = typeof text === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) : null;
  if (!match) invalidField(field, 'must be a date in the form YYYY-MM-DD');
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth) {
    invalidField(field, 'must be a valid calendar date');
  }
  return match[0];
}
