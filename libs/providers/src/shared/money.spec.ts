import fc from 'fast-check';
import { hundredthsToPercent, kronerToMinor, minorToKroner, percentToHundredths, splitGross } from './money';

describe('splitGross', () => {
  it('splits 135.00 kr at 25 % into 108.00 net and 27.00 VAT', () => {
    expect(splitGross(13_500, 2_500)).toEqual({ net: 10_800, vat: 2_700 });
  });

  it('rounds the net amount half up and gives VAT the remainder', () => {
    expect(splitGross(11_900, 2_500)).toEqual({ net: 9_520, vat: 2_380 });
    expect(splitGross(100, 1_500)).toEqual({ net: 87, vat: 13 });
    expect(splitGross(1, 2_500)).toEqual({ net: 1, vat: 0 });
  });

  it('keeps the whole amount as net at 0 %', () => {
    expect(splitGross(12_345, 0)).toEqual({ net: 12_345, vat: 0 });
  });

  it('always sums exactly to the gross amount, with VAT within half an øre of the rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.constantFrom(0, 1_111, 1_200, 1_500, 2_500),
        (gross, rate) => {
          const { net, vat } = splitGross(gross, rate);
          expect(net + vat).toBe(gross);
          expect(Number.isInteger(net) && Number.isInteger(vat)).toBe(true);
          expect(Math.abs(net * (10_000 + rate) - gross * 10_000)).toBeLessThanOrEqual((10_000 + rate) / 2);
        },
      ),
    );
  });

  it('refuses a gross amount that is not an integer of minor units', () => {
    expect(() => splitGross(10.5, 2_500)).toThrow(RangeError);
  });
});

describe('amount and percentage conversions', () => {
  it('converts kroner numbers to øre without float drift', () => {
    expect(kronerToMinor(1249.5)).toBe(124_950);
    expect(kronerToMinor(0.29)).toBe(29);
    expect(kronerToMinor(-135)).toBe(-13_500);
    expect(kronerToMinor('12.34')).toBe(1_234);
    expect(kronerToMinor(undefined)).toBe(0);
    expect(minorToKroner(12_345)).toBe(123.45);
  });

  it('reads percentages as hundredths and writes them back as decimal strings', () => {
    expect(percentToHundredths('25')).toBe(2_500);
    expect(percentToHundredths(11.11)).toBe(1_111);
    expect(percentToHundredths('25.0')).toBe(2_500);
    expect(percentToHundredths('abc')).toBeNull();
    expect(percentToHundredths('')).toBeNull();
    expect(percentToHundredths(-1)).toBeNull();
    expect(hundredthsToPercent(2_500)).toBe('25');
    expect(hundredthsToPercent(1_111)).toBe('11.11');
    expect(hundredthsToPercent(0)).toBe('0');
  });
});
