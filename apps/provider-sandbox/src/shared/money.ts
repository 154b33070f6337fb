/** Amounts live as integer øre inside the sandbox; Tripletex speaks kroner, Fiken speaks øre. */

export function oreToKroner(ore: number): number {
  return Math.round(ore) / 100;
}

/** Parses a JSON kroner number into øre, or `undefined` when it is not a finite number. */
export function kronerToOre(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.round(value * 100);
}

/** Splits a gross amount into net and VAT at a percentage rate (VAT = gross − net). */
export function splitGross(grossOre: number, percentage: number): { net: number; vat: number } {
  if (percentage === 0) return { net: grossOre, vat: 0 };
  const net = Math.round((grossOre * 100) / (100 + percentage));
  return { net, vat: grossOre - net };
}
