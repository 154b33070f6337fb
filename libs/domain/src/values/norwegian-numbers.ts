/**
 * Check digits of Norwegian payment identifiers: organisation numbers (Brønnøysundregistrene),
 * bank account numbers and KID (Bits' standard). Pure functions over digit strings.
 */

/** The mod-11 check digit for `digits` with these weights (applied left to right), or null when it would be 10. */
function mod11CheckDigit(digits: string, weights: readonly number[]): number | null {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * weights[i];
  const check = 11 - (sum % 11);
  if (check === 11) return 0;
  return check === 10 ? null : check;
}

/** A 9-digit Norwegian organisation number whose last digit is its mod-11 check digit (weights 3 2 7 6 5 4 3 2). */
export function isOrganizationNumber(text: string): boolean {
  if (!/^\d{9}$/.test(text)) return false;
  return mod11CheckDigit(text.slice(0, 8), [3, 2, 7, 6, 5, 4, 3, 2]) === Number(text[8]);
}

/** An 11-digit Norwegian bank account number whose last digit is its mod-11 check digit (weights 5 4 3 2 7 6 5 4 3 2). */
export function isBankAccountNumber(text: string): boolean {
  if (!/^\d{11}$/.test(text)) return false;
  return mod11CheckDigit(text.slice(0, 10), [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) === Number(text[10]);
}

/** The Luhn (mod-10) check digit of `digits`. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Doubling starts at the rightmost digit of the body.
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** The KID mod-11 check digit (weights 2..7 repeating from the right), or null when it would be 10 ("-"). */
export function kidMod11CheckDigit(digits: string): number | null {
  const weights = Array.from({ length: digits.length }, (_, i) => 2 + ((digits.length - 1 - i) % 6));
  return mod11CheckDigit(digits, weights);
}

/** A KID: 2 to 25 digits whose last digit is a valid mod-10 (Luhn) or mod-11 check digit. */
export function isKid(text: string): boolean {
  if (!/^\d{2,25}$/.test(text)) return false;
  const body = text.slice(0, -1);
  const check = Number(text[text.length - 1]);
  return luhnCheckDigit(body) === check || kidMod11CheckDigit(body) === check;
}
