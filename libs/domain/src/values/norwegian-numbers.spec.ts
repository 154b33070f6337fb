import fc from 'fast-check';
import {
  isBankAccountNumber,
  isKid,
  isOrganizationNumber,
  kidMod11CheckDigit,
  luhnCheckDigit,
} from './norwegian-numbers';

describe('Norwegian check digits', () => {
  it.each(['974760673', '923609016', '986105174'])('accepts the organisation number %s', (number) => {
    expect(isOrganizationNumber(number)).toBe(true);
  });

  it.each(['974760674', '92360901', '9236090160', '92360901a', ''])('refuses the organisation number %j', (number) => {
    expect(isOrganizationNumber(number)).toBe(false);
  });

  it('refuses every organisation number with one digit changed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const digits = '974760673'.split('').map(Number);
        digits[position] = (digits[position] + delta) % 10;
        expect(isOrganizationNumber(digits.join(''))).toBe(false);
      }),
    );
  });

  it.each(['12345678903', '86011117947'])('accepts the bank account %s', (account) => {
    expect(isBankAccountNumber(account)).toBe(true);
  });

  it.each(['12345678901', '1234567890', '1234.56.78903'])('refuses the bank account %j', (account) => {
    expect(isBankAccountNumber(account)).toBe(false);
  });

  it.each([
    ['12345674', 'mod-10'],
    ['0000001230', 'mod-10 (with leading zeros)'],
    ['12345678903', 'mod-11'],
  ])('accepts the KID %s (%s)', (kid) => {
    expect(isKid(kid)).toBe(true);
  });

  it.each(['1', '12345675', '1'.repeat(26), '1234-5'])('refuses the KID %j', (kid) => {
    expect(isKid(kid)).toBe(false);
  });

  it('accepts any body completed with its Luhn check digit, and its mod-11 one where there is one', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,24}$/), (body) => {
        expect(isKid(`${body}${luhnCheckDigit(body)}`)).toBe(true);
        const mod11 = kidMod11CheckDigit(body);
        if (mod11 !== null) expect(isKid(`${body}${mod11}`)).toBe(true);
      }),
    );
  });
});
