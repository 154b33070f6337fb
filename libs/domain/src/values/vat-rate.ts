import { invalidField } from './field-errors';

/**
 * A VAT rate as a percentage in canonical decimal-string form: "25", "15", "12", "0", "11.11".
 * Canonical means no trailing fraction zeros ("25.00" → "25", "11.10" → "11.1"), so two equal rates
 * are equal strings and can be compared and stored as they are.
 */
export type VatRate = string;

const RATE = /^(0|[1-9]\d{0,2})(?:\.(\d{1,2}))?$/;

/** The rate in hundredths of a percent: "11.11" → 1111. */
function hundredths(text: string): number | null {
  const match = RATE.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export function parseVatRate(text: unknown, field = 'vatRate'): VatRate {
  const value = typeof text === 'string' ? hundredths(text) : null;
  if (value === null)
    invalidField(field, 'must be a percentage as a decimal string with at most 2 decimals, such as "25"');
  if (value > 10000) invalidField(field, 'must be between 0 and 100');
  const whole = Math.floor(value / 100);
  const fraction = String(value % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Equal rates, whatever their spelling ("25" and "25.00"). Unparseable strings compare as text. */
export function sameVatRate(a: string, b: string): boolean {
  const [x, y] = [hundredths(a), hundredths(b)];
  return x !== null && y !== null ? x === y : a === b;
}

/** A canonical rate in hundredths of a percent ("11.11" → 1111); throws on a rate that is not one. */
export function vatRateHundredths(rate: VatRate): number {
  const value = hundredths(rate);
  if (value === null) throw new Error(`not a VAT rate: ${rate}`);
  return value;
}
