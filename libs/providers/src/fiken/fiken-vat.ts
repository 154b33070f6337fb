import { ProviderVatType } from '@app/domain';

/** Fiken's purchase-side VAT types that carry a plain rate (hundredths of a percent). */
const PURCHASE_VAT_TYPES: ReadonlyArray<{ code: string; name: string; rate: number }> = [
  { code: 'HIGH', name: 'Høy sats (25 %)', rate: 2500 },
  { code: 'MEDIUM', name: 'Middels sats (15 %)', rate: 1500 },
  { code: 'LOW', name: 'Lav sats (12 %)', rate: 1200 },
  { code: 'RAW_FISH', name: 'Råfisk (11,11 %)', rate: 1111 },
  { code: 'NONE', name: 'Ingen mva', rate: 0 },
];

/** The VAT type of a purchase line for a rate, or undefined when Fiken has none. */
export function fikenVatTypeFor(rateHundredths: number): string | undefined {
  return PURCHASE_VAT_TYPES.find((v) => v.rate === rateHundredths)?.code;
}

/** Fiken has no VAT type endpoint: its fixed purchase-side types, as context. */
export function fikenVatTypes(): ProviderVatType[] {
  return PURCHASE_VAT_TYPES.map((v) => ({ id: v.code, code: v.code, name: v.name, ratePercent: String(v.rate / 100) }));
}
