import { ValidationFailed } from '../errors/domain-error';
import {
  ExpenseDetailsInput,
  MAX_RECEIPT_BYTES,
  NokAmountRequired,
  parseExpenseDetails,
  RECEIPT_CONTENT_TYPES,
} from './expense-details';

/** Today in Norway, for the rule on dates ahead. */
const TODAY = '2026-11-20';

function validInput(overrides: Partial<ExpenseDetailsInput> = {}): ExpenseDetailsInput {
  return {
    kind: 'expense',
    merchant: 'Spotify AB',
    amount: '119.00',
    currency: 'NOK',
    date: '2026-11-20',
    accountCode: '6540',
    vatRate: '25',
    description: 'Spotify Premium',
    receipt: { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 1234, sha256: 'ab'.repeat(32) },
    thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
    ...overrides,
  };
}

function fieldsOf(input: ExpenseDetailsInput): string[] {
  try {
    parseExpenseDetails(input, TODAY);
  } catch (error) {
    if (error instanceof ValidationFailed) return (error.fieldErrors ?? []).map((e) => e.field);
    throw error;
  }
  return [];
}

describe('parseExpenseDetails', () => {
  it.each(['2026-11-22', '2099-12-31', '9999-12-31'])(
    'refuses a date more than a day after today in Norway (%s) on date',
    (date) => {
      expect(fieldsOf(validInput({ date }))).toEqual(['date']);
      expect(() => parseExpenseDetails(validInput({ date }), TODAY)).toThrow(
        /date must not be later than 2026-11-21 \(today in Norway, 2026-11-20, plus 1 day\)/,
      );
    },
  );

  it.each(['2026-11-21', '2026-11-20', '2025-01-01', '1970-01-01'])('accepts %s, today being 2026-11-20', (date) => {
    expect(parseExpenseDetails(validInput({ date }), TODAY).date).toBe(date);
  });

  it('turns the wire shape into domain values: minor units, canonical VAT rate', () => {
    expect(parseExpenseDetails(validInput({ amount: '1249.5', vatRate: '25.00' }), TODAY)).toEqual({
      kind: 'expense',
      merchant: 'Spotify AB',
      amount: 124950,
      currency: 'NOK',
      amountNok: null,
      date: '2026-11-20',
      accountCode: '6540',
      vatRate: '25',
      description: 'Spotify Premium',
      receipt: { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 1234, sha256: 'ab'.repeat(32) },
      thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
      paidWith: 'bank',
      vatTreatment: 'domestic',
      lines: [{ accountCode: '6540', vatRate: '25', amount: 124950, description: 'Spotify Premium' }],
      supplier: null,
      invoiceNumber: null,
      dueDate: null,
      departmentId: null,
    });
  });

  it('accepts a proposal without description, receipt or thread', () => {
    const details = parseExpenseDetails(validInput({ description: null, receipt: null, thread: undefined }), TODAY);

    expect(details).toMatchObject({ description: null, receipt: null, thread: null });
  });

  it('reports every bad field at once', () => {
    expect(
      fieldsOf({
        kind: 'invoice',
        merchant: '',
        amount: 119,
        currency: 'nok',
        date: '2026-02-30',
        accountCode: '65',
        vatRate: '250',
      }),
    ).toEqual(['kind', 'merchant', 'amount', 'currency', 'date', 'accountCode', 'vatRate']);
  });

  it.each([
    ['a zero amount', { amount: '0.00' }, 'amount'],
    ['a negative amount', { amount: '-119.00' }, 'amount'],
    ['three decimals', { amount: '119.001' }, 'amount'],
    ['a merchant of only noise', { merchant: '*1234' }, 'merchant'],
    ['a too long merchant', { merchant: 'x'.repeat(201) }, 'merchant'],
    ['an empty description', { description: '  ' }, 'description'],
    ['an unknown thread channel', { thread: { channel: 'irc', threadId: '1' } }, 'thread.channel'],
    [
      'an unsupported receipt type',
      {
        receipt: { filename: 'r.exe', contentType: 'application/x-msdownload', sizeBytes: 10, sha256: 'ab'.repeat(32) },
      },
      'receipt.contentType',
    ],
    [
      'a receipt over 7 MiB',
      {
        receipt: {
          filename: 'r.pdf',
          contentType: 'application/pdf',
          sizeBytes: MAX_RECEIPT_BYTES + 1,
          sha256: 'ab'.repeat(32),
        },
      },
      'receipt',
    ],
    [
      'an empty receipt',
      { receipt: { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 0, sha256: 'ab'.repeat(32) } },
      'receipt',
    ],
    [
      'a bad digest',
      { receipt: { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 10, sha256: 'xyz' } },
      'receipt.sha256',
    ],
  ] as const)('refuses %s', (_label, overrides, field) => {
    expect(fieldsOf(validInput(overrides as Partial<ExpenseDetailsInput>))).toEqual([field]);
  });

  it('accepts a receipt of exactly 7 MiB', () => {
    const receipt = {
      filename: 'r.pdf',
      contentType: 'application/pdf',
      sizeBytes: MAX_RECEIPT_BYTES,
      sha256: 'ab'.repeat(32),
    };
    expect(parseExpenseDetails(validInput({ receipt }), TODAY).receipt?.sizeBytes).toBe(MAX_RECEIPT_BYTES);
  });

  it('refuses a HEIC receipt, naming the types it takes', () => {
    const receipt = { filename: 'r.heic', contentType: 'image/heic', sizeBytes: 10, sha256: 'ab'.repeat(32) };
    let refused: unknown;
    try {
      parseExpenseDetails(validInput({ receipt }), TODAY);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ValidationFailed);
    const [fieldError] = (refused as ValidationFailed).fieldErrors ?? [];
    expect(fieldError.field).toBe('receipt.contentType');
    expect(fieldError.message).toContain('HEIC');
    for (const type of RECEIPT_CONTENT_TYPES) expect(fieldError.message).toContain(type);
  });

  it.each(['image/gif', 'image/tiff', 'image/webp'])(
    'accepts a %s receipt (converted for a provider that needs it)',
    (contentType) => {
      const receipt = { filename: 'r', contentType, sizeBytes: 10, sha256: 'ab'.repeat(32) };
      expect(parseExpenseDetails(validInput({ receipt }), TODAY).receipt?.contentType).toBe(contentType);
    },
  );

  it('keeps the NOK amount paid for an expense in another currency', () => {
    expect(
      parseExpenseDetails(validInput({ currency: 'EUR', amount: '125.00', amountNok: '1462.50' }), TODAY),
    ).toMatchObject({
      amount: 12_500,
      currency: 'EUR',
      amountNok: 146_250,
    });
  });

  it('refuses an expense in another currency without amountNok with nok_amount_required', () => {
    expect(() => parseExpenseDetails(validInput({ currency: 'EUR' }), TODAY)).toThrow(NokAmountRequired);
    try {
      parseExpenseDetails(validInput({ currency: 'USD', amountNok: null }), TODAY);
    } catch (error) {
      expect(error).toMatchObject({ code: 'nok_amount_required', fieldErrors: [{ field: 'amountNok' }] });
    }
  });

  it('reports form errors before the missing NOK amount', () => {
    expect(fieldsOf(validInput({ currency: 'EUR', amount: '0' }))).toEqual(['amount']);
  });

  it.each([
    ['an amountNok that is not money', { currency: 'EUR', amountNok: 1462.5 }],
    ['a zero amountNok', { currency: 'EUR', amountNok: '0.00' }],
    ['an amountNok other than the amount of a NOK expense', { amountNok: '120.00' }],
  ] as const)('refuses %s', (_label, overrides) => {
    expect(fieldsOf(validInput(overrides as Partial<ExpenseDetailsInput>))).toEqual(['amountNok']);
  });
});
