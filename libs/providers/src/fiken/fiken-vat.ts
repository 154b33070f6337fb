import { ProviderVatType } from '@app/domain';

/**
 * Fiken's purchase-side VAT types the service books, with their rate (hundredths of a percent) and
 * the standard (SAF-T) code Fiken's definition maps each to ("VAT Code" table: codes on the
 * transactions, types on purchases). The reverse-charge types carry the rate Fiken computes the
 * Norwegian VAT at on the amount paid.
 */
const PURCHASE_VAT_TYPES: ReadonlyArray<{ code: string; name: string; rate: number; standardCode: string }> = [
  { code: 'HIGH', name: 'Høy sats (25 %)', rate: 2500, standardCode: '1' },
  { code: 'MEDIUM', name: 'Middels sats (15 %)', rate: 1500, standardCode: '11' },
  { code: 'LOW', name: 'Lav sats (12 %)', rate: 1200, standardCode: '13' },
  { code: 'RAW_FISH', name: 'Råfisk (11,11 %)', rate: 1111, standardCode: '12' },
  { code: 'NONE', name: 'Ingen mva', rate: 0, standardCode: '0' },
  {
    code: 'HIGH_FOREIGN_SERVICE_DEDUCTIBLE',
    name: 'Tjenester kjøpt fra utlandet, med fradrag (25 %)',
    rate: 2500,
    standardCode: '86',
  },
  {
    code: 'LOW_FOREIGN_SERVICE_DEDUCTIBLE',
    name: 'Tjenester kjøpt fra utlandet, med fradrag, lav sats (12 %)',
    rate: 1200,
    standardCode: '88',
  },
];

/** Fiken has no VAT type endpoint: its fixed purchase-side types, as context. */
export function fikenVatTypes(): ProviderVatType[] {
  return PURCHASE_VAT_TYPES.map((v) => ({
    id: v.code,
    code: v.code,
    name: v.name,
    ratePercent: String(v.rate / 100),
    standardCode: v.standardCode,
  }));
}
