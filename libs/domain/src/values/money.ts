import { invalidField } from './field-errors';

/**
 * Money inside the domain is an integer number of minor units (øre, cents): never a float.
 * Outside (JSON) it is a decimal string with at most 2 fraction digits (docs/api.md §1).
 * Every currency is treated as having 2 minor digits, because that is what the contract's
 * decimal strings can express.
 */
export type MinorUnits = number;

/** Up to 13 integer digits keeps every amount well inside Number.MAX_SAFE_INTEGER minor units. */
const DECIMAL = /^(-)?(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/;

/**
 * Parses a decimal string ("1249.50", "1249.5", "1249", "-3.10") into minor units (124950).
 * Rejects floats' friends: exponents, thousands separators, commas, spaces, more than 2 decimals,
 * leading zeros and "+".
 */
export function parseMoney(text: unknown, field = 'amount'): MinorUnits {
  if (typeof text !== 'string') invalidField(field, 'must be a decimal string such as "1249.50"');
  const match = DECIMAL.exec(text);
  if (!match) invalidField(field, 'must be a decimal string with at most 2 fraction digits, such as "1249.50"');
  const [, sign, whole, fraction = ''] = match;
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign && minor !== 0 ? -minor : minor;
}

/** An amount that must be strictly positive, such as an expense. */
export function parsePositiveMoney(text: unknown, field = 'amount'): MinorUnits {
  const minor = parseMoney(text, field);
  if (minor <= 0) invalidField(field, 'must be greater than 0');
  return minor;
}

/** Formats minor units as the contract's decimal string: 124950 → "1249.50", -5 → "-0.05". */
export function formatMoney(minor: MinorUnits): string {
  if (!Number.isSafeInteger(minor)) {
    throw new RangeError(`money must be a safe integer of minor units, got ${minor}`);
  }
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${sign}${whole}.${fraction}`;
}
