import { aBooking } from '@app/testing';
import { accountRulesOf, vatTypeForLine } from './tripletex-vat';

const vatTypes = [
  { id: 900, number: '0', name: 'Ingen avgiftsbehandling', percentage: 0 },
  { id: 903, number: '3', name: 'Utgående avgift, høy sats', percentage: 25 },
  { id: 901, number: '1', name: 'Fradrag inngående avgift, høy sats', percentage: 25 },
  { id: 911, number: '11', name: 'Fradrag inngående avgift, middels sats', percentage: 15 },
  { id: 986, number: '86', name: 'Tjenester kjøpt fra utlandet, høy sats', percentage: 25 },
];

const line = (vatRate: string, vatTreatment: 'domestic' | 'reverse_charge' = 'domestic') =>
  aBooking({
    reference: 'r',
    date: '2026-11-27',
    description: null,
    merchant: 'M',
    accountCode: '6540',
    vatRate,
    grossAmount: 10_000,
    currency: vatTreatment === 'domestic' ? 'NOK' : 'USD',
    amountNok: vatTreatment === 'domestic' ? null : 100_000,
    paymentAccount: '1920',
    vatTreatment,
  }).lines[0];

describe('vatTypeForLine', () => {
  it('picks the VAT type whose number is the line code, whatever its id or place in the list', () => {
    expect(vatTypeForLine(vatTypes, line('25')).id).toBe(901);
    expect(vatTypeForLine([...vatTypes].reverse(), line('15')).id).toBe(911);
    expect(vatTypeForLine(vatTypes, line('0')).id).toBe(900);
    expect(vatTypeForLine(vatTypes, line('25', 'reverse_charge')).id).toBe(986);
  });

  it('refuses a code the company lacks, and a rate without a code, with unknown_vat_rate', () => {
    expect(() => vatTypeForLine(vatTypes, line('12'))).toThrow(expect.objectContaining({ code: 'unknown_vat_rate' }));
    expect(() => vatTypeForLine(vatTypes, line('7'))).toThrow(expect.objectContaining({ code: 'unknown_vat_rate' }));
  });
});

describe('accountRulesOf', () => {
  it("reads a VAT-locked account's VAT number, its legal types, ledger type and requirements", () => {
    expect(
      accountRulesOf({
        vatLocked: true,
        vatType: { id: 1, number: '1' },
        legalVatTypes: [{ id: 1, number: '1' }],
        ledgerType: 'EMPLOYEE',
        requiresDepartment: true,
        requiresProject: false,
        isInactive: true,
      }),
    ).toEqual({
      lockedVatCode: '1',
      legalVatCodes: ['1'],
      ledgerType: 'employee',
      requiresDepartment: true,
      requiresProject: false,
      inactive: true,
    });
  });

  it('reads an account without rules as general, any VAT type', () => {
    expect(accountRulesOf({ vatLocked: false, vatType: { id: 1, number: '1' }, legalVatTypes: [] })).toEqual({
      lockedVatCode: null,
      legalVatCodes: null,
      ledgerType: 'general',
      requiresDepartment: false,
      requiresProject: false,
      inactive: false,
    });
    expect(accountRulesOf({ ledgerType: 'VENDOR' }).ledgerType).toBe('supplier');
  });
});
