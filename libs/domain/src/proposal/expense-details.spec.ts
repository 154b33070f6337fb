import { ValidationFailed } from '../errors/domain-error';
import { ExpenseDetailsInput, MAX_RECEIPT_BYTES, parseExpenseDetails } from './expense-details';

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
    parseExpenseDetails(input);
  } catch (error) {
    if (error instanceof ValidationFailed) return (error.fieldErrors ?? []).map((e) => e.field);
    throw error;
  }
  return [];
}

describe('parseExpenseDetails', () => {
  it('turns the wire shape into domain values: minor units, canonical VAT rate', () => {
    expect(parseExpenseDetails(validInput({ amount: '1249.5', vatRate: '25.00' }))).toEqual({
      kind: 'expense',
      merchant: 'Spotify AB',
      amount: 124950,
      currency: 'NOK',
      date: '2026-11-20',
      accountCode: '6540',
      vatRate: '25',
      description: 'Spotify Premium',
      receipt: { filename: 'r.pdf', contentType: 'application/pdf', sizeBytes: 1234, sha256: 'ab'.repeat(32) },
      thread: { channel: 'slack', threadId: 'C01/1700000000.000100' },
    });
  });

  it('accepts a proposal without description, receipt or thread', () => {
    const details = parseExpenseDetails(validInput({ description: null, receipt: null, thread: undefined }));

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
    expect(parseExpenseDetails(validInput({ receipt })).receipt?.sizeBytes).toBe(MAX_RECEIPT_BYTES);
  });
});
