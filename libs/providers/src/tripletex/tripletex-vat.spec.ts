import { chooseExpenseVatType } from './tripletex-vat';

const vatTypes = [
  { id: 900, number: '0', name: 'Ingen avgiftsbehandling', percentage: 0 },
  { id: 903, number: '3', name: 'Utgående avgift, høy sats', percentage: 25 },
  { id: 901, number: '1', name: 'Fradrag inngående avgift, høy sats', percentage: 25 },
  { id: 911, number: '11', name: 'Fradrag inngående avgift, middels sats', percentage: 15 },
  { id: 931, number: '31', name: 'Utgående avgift, middels sats', percentage: 15 },
  { id: 905, number: '5', name: 'Ingen utgående avgift (innenfor mva-loven)', percentage: 0 },
];

describe('chooseExpenseVatType', () => {
  it('picks the deductible input VAT type for the rate, whatever its id in this company', () => {
    expect(chooseExpenseVatType(vatTypes, 2_500, null)?.id).toBe(901);
    expect(chooseExpenseVatType(vatTypes, 1_500, null)?.id).toBe(911);
  });

  it("prefers the account's own VAT type when it has the rate", () => {
    expect(chooseExpenseVatType(vatTypes, 2_500, '903')?.id).toBe(903);
    expect(chooseExpenseVatType(vatTypes, 1_500, '903')?.id).toBe(911);
  });

  it('uses VAT code 0 for a rate of 0', () => {
    expect(chooseExpenseVatType(vatTypes, 0, null)?.id).toBe(900);
  });

  it('finds nothing for a rate the company lacks', () => {
    expect(chooseExpenseVatType(vatTypes, 1_200, null)).toBeUndefined();
  });
});
