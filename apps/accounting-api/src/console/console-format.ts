import type { CompanyLocale, MinorUnits } from '@app/domain';
import { html, type Html } from './html';

/** The console's languages of numbers and dates (the company's `locale` setting). */
export type ConsoleLocale = CompanyLocale;

/** Times are shown in Norway's time zone whatever the locale: the companies are Norwegian. */
const TIME_ZONE = 'Europe/Oslo';

/** Money from minor units, e.g. `1 234,50 kr` (nb-NO) or `NOK 1,234.50` (en-GB). */
export function formatAmount(locale: ConsoleLocale, minor: MinorUnits, currency: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
}

/** An accounting date (`YYYY-MM-DD`), e.g. `20.11.2026` or `20 Nov 2026`. */
export function formatDate(locale: ConsoleLocale, date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(parsed);
}

/**
 * An instant in Oslo time, with the month in words as in `formatDate`: `28. nov. 2026, 17:05`
 * (nb-NO) or `28 Nov 2026, 17:05` (en-GB). Pages show instants through `timeOf`.
 */
export function formatInstant(locale: ConsoleLocale, instant: Date): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: TIME_ZONE }).format(
    instant,
  );
}

/** The console's one way to show an instant: `formatInstant`'s words in a `<time>` keeping the exact UTC value. */
export function timeOf(locale: ConsoleLocale, instant: Date): Html {
  return html`<time datetime="${instant.toISOString()}">${formatInstant(locale, instant)}</time>`;
}

/** A share in [0, 1] as a percentage, e.g. `82 %` or `82%`. */
export function formatShare(locale: ConsoleLocale, share: number): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(share);
}

/** A VAT rate (`"25"`, `"11.11"`) with the locale's decimal separator. */
export function formatRate(locale: ConsoleLocale, rate: string): string {
  const value = Number(rate);
  if (!Number.isFinite(value)) return rate;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value)} %`;
}

/** A decimal amount string (`"1234.50"`) as money; the string itself when it is not a number. */
export function formatDecimal(locale: ConsoleLocale, amount: string, currency: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
}
