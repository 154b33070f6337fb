import fc from 'fast-check';
import { ValidationFailed } from '../errors/domain-error';
import { parseAccountCode } from './account-code';
import { addDays, osloDate, parseAccountingDate } from './accounting-date';
import { parseCurrency } from './currency';
import { FieldErrorCollector } from './field-errors';
import { formatMoney, parseMoney, parsePositiveMoney } from './money';
import { parseVatRate, sameVatRate } from './vat-rate';

function fieldErrorsOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationFailed) return error.fieldErrors;
    throw error;
  }
  throw new Error('expected ValidationFailed');
}

describe('money', () => {
  it.each([
    ['1249.50', 124950],
    ['1249.5', 124950],
    ['1249', 124900],
    ['0.01', 1],
    ['0', 0],
    ['119.00', 11900],
    ['-3.10', -310],
    ['9999999999999.99', 999999999999999],
  ])('parses %s as %d minor units', (text, minor) => {
    expect(parseMoney(text)).toBe(minor);
  });

  it.each([
    '1,249.50',
    '1 249.50',
    '1249.505',
    '1e3',
    '+5',
    '01.00',
    '.5',
    '5.',
    '',
    ' 5',
    'NaN',
    '12.3.4',
    '10000000000000.00',
  ])('refuses %p with validation_failed naming the field', (text) => {
    expect(fieldErrorsOf(() => parseMoney(text, 'amount'))).toEqual([
      { field: 'amount', message: expect.stringContaining('amount') },
    ]);
  });

  it('refuses a JSON number: money is a decimal string', () => {
    expect(() => parseMoney(119)).toThrow(ValidationFailed);
  });

  it.each(['0', '0.00', '-1.00'])('refuses %s as an expense amount: it must be greater than 0', (text) => {
    expect(fieldErrorsOf(() => parsePositiveMoney(text))?.[0]?.message).toMatch(/greater than 0/);
  });

  it.each([
    [124950, '1249.50'],
    [1, '0.01'],
    [0, '0.00'],
    [-5, '-0.05'],
    [11900, '119.00'],
  ])('formats %d minor units as %s', (minor, text) => {
    expect(formatMoney(minor)).toBe(text);
  });

  it('refuses to format a fraction of a minor unit', () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
  });

  it('round-trips every amount: parse(format(x)) = x', () => {
    fc.assert(
      fc.property(fc.integer({ min: -999999999999999, max: 999999999999999 }), (minor) => {
        expect(parseMoney(formatMoney(minor))).toBe(minor);
      }),
    );
  });
});

describe('currency', () => {
  it.each(['NOK', 'EUR', 'USD'])('accepts %s', (code) => expect(parseCurrency(code)).toBe(code));
  it.each(['nok', 'NO', 'NOKK', '', 'N0K', 12])('refuses %p', (code) =>
    expect(() => parseCurrency(code)).toThrow(ValidationFailed),
  );
});

describe('accounting date', () => {
  it.each(['2026-11-20', '2024-02-29', '2000-02-29', '2026-12-31'])('accepts %s', (date) => {
    expect(parseAccountingDate(date)).toBe(date);
  });
  it.each([
    '2026-02-29',
    '1900-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '20261120',
    '2026-1-20',
    '2026-11-20T00:00:00Z',
    '',
  ])('refuses %p', (date) => expect(() => parseAccountingDate(date)).toThrow(ValidationFailed));
});

describe('VAT rate', () => {
  it.each([
    ['25', '25'],
    ['25.00', '25'],
    ['15', '15'],
    ['12', '12'],
    ['0', '0'],
    ['11.11', '11.11'],
    ['11.10', '11.1'],
    ['100', '100'],
    ['0.5', '0.5'],
  ])('accepts %s as %s', (text, canonical) => {
    expect(parseVatRate(text)).toBe(canonical);
  });
  it.each(['100.01', '101', '-25', '25%', '11.111', '025', '', 'abc', 25])('refuses %p', (text) => {
    expect(() => parseVatRate(text)).toThrow(ValidationFailed);
  });
  it('compares rates by value', () => {
    expect(sameVatRate('25', '25.00')).toBe(true);
    expect(sameVatRate('25', '15')).toBe(false);
  });
});

describe('account code', () => {
  it.each(['6540', '1920', '65400', '654000'])('accepts %s', (code) => expect(parseAccountCode(code)).toBe(code));
  it.each(['654', '6540000', '65a0', '2400:10001', '', 6540])('refuses %p', (code) => {
    expect(() => parseAccountCode(code)).toThrow(ValidationFailed);
  });
});

describe('FieldErrorCollector', () => {
  it('reports every bad field at once', () => {
    const errors = new FieldErrorCollector();
    errors.check(() => parseMoney('x'));
    errors.check(() => parseCurrency('nok'));
    errors.check(() => parseAccountCode('6540'));

    const fields = fieldErrorsOf(() => errors.throwIfAny())?.map((e) => e.field);

    expect(fields).toEqual(['amount', 'currency']);
  });

  it('lets errors other than validation through', () => {
    const errors = new FieldErrorCollector();
    expect(() =>
      errors.check(() => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });
});

describe("today's date in Norway", () => {
  it.each([
    ['2026-12-31T22:59:59Z', '2026-12-31'],
    ['2026-12-31T23:00:00Z', '2027-01-01'],
    ['2026-06-30T21:59:59Z', '2026-06-30'],
    ['2026-06-30T22:00:00Z', '2026-07-01'],
  ])('at %s is %s (Oslo: UTC+1 in winter, UTC+2 in summer)', (instant, date) => {
    expect(osloDate(new Date(instant))).toBe(date);
  });

  it.each([
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
  ] as const)('%s plus %i day is %s', (date, days, next) => expect(addDays(date, days)).toBe(next));
});
