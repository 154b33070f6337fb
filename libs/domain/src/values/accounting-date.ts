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

/**
 * How many days after today (in Norway) a booking's date may lie: a receipt written in a time zone
 * ahead of Oslo's, or near midnight, can carry tomorrow's date; anything later is a typo or a
 * made-up date, and is refused.
 */
export const MAX_DAYS_AHEAD = 1;

/** `date` plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: AccountingDate, days: number): AccountingDate {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/**
 * Built once: constructing an Intl.DateTimeFormat costs far more than formatting with it (it was
 * 3 % of the service's CPU on the keyed submission, built on every request).
 */
const OSLO_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Oslo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The date it is in Norway (Europe/Oslo) at `now`, where the company keeps its books. */
export function osloDate(now: Date): AccountingDate {
  const parts = OSLO_DAY.formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Refuses a date more than MAX_DAYS_AHEAD after `today` (ValidationFailed naming `field`). */
export function assertNotAhead(date: AccountingDate, today: AccountingDate, field = 'date'): void {
  const latest = addDays(today, MAX_DAYS_AHEAD);
  // Both are YYYY-MM-DD with four-digit years, so text order is date order.
  if (date > latest) {
    invalidField(field, `must not be later than ${latest} (today in Norway, ${today}, plus ${MAX_DAYS_AHEAD} day)`);
  }
}
