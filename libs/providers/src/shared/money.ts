/** Provider amount in kroner (a JSON number with two decimals) → integer øre. */
export function kronerToMinor(value: unknown): number {
  const kroner = typeof value === 'number' ? value : Number(value ?? 0);
  return Number.isFinite(kroner) ? Math.round(kroner * 100) : 0;
}

/** Integer øre → kroner as a JSON number (Tripletex). */
export function minorToKroner(minor: number): number {
  return Math.round(minor) / 100;
}

/** A VAT percentage (`"25"`, `"11.11"`, 12) in hundredths of a percent, or null when it is not one. */
export function percentToHundredths(value: unknown): number | null {
  const percent =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
    return null;
  }
  return Math.round(percent * 100);
}

/** Hundredths of a percent → the decimal string the domain uses: 2500 → "25", 1111 → "11.11". */
export function hundredthsToPercent(hundredths: number): string {
  return String(hundredths / 100);
}

/**
 * Splits a gross amount into net and VAT at the given rate, both integers that sum exactly to the
 * gross: net is the gross divided by (1 + rate), rounded half up; VAT is the remainder.
 */
export function splitGross(grossMinor: number, rateHundredths: number): { net: number; vat: number } {
  if (!Number.isSafeInteger(grossMinor)) {
    throw new RangeError('gross amount must be an integer of minor units');
  }
  const gross = BigInt(grossMinor);
  const divisor = BigInt(10_000 + rateHundredths);
  const doubled = (gross * 2n * 10_000n) / divisor;
  const net = Number((doubled + (doubled >= 0n ? 1n : -1n)) / 2n);
  return { net, vat: grossMinor - net };
}
