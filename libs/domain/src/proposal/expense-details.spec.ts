import fc from 'fast-check';
import { formatMoney } from '../values/money';
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
      parseExpenseDetails(
        validInput({ currency: 'EUR', amount: '125.00', amountNok: '1462.50', vatTreatment: 'foreign_no_deduction' }),
        TODAY,
      ),
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

describe('parseExpenseDetails: what was bought and how it was paid', () => {
  const ORG = '923609016';
  const invoice = (overrides: Partial<ExpenseDetailsInput> = {}): ExpenseDetailsInput =>
    validInput({
      kind: 'supplier_invoice',
      supplier: { name: 'Kontorrekvisita AS', organizationNumber: ORG, bankAccount: '1234.56.78903', kid: '12345674' },
      invoiceNumber: 'F-1001',
      dueDate: '2026-12-14',
      ...overrides,
    });
  const codeOf = (input: ExpenseDetailsInput): string | null => {
    try {
      parseExpenseDetails(input, TODAY);
      return null;
    } catch (error) {
      return (error as { code: string }).code;
    }
  };

  it('completes a plain expense: paid from the bank, domestic VAT, one line of its own fields', () => {
    const details = parseExpenseDetails(validInput(), TODAY);

    expect(details).toMatchObject({
      kind: 'expense',
      paidWith: 'bank',
      vatTreatment: 'domestic',
      lines: [{ accountCode: '6540', vatRate: '25', amount: 11900, description: 'Spotify Premium' }],
      supplier: null,
      invoiceNumber: null,
      dueDate: null,
      departmentId: null,
    });
  });

  it.each(['bank', 'company_card', 'employee'])('takes paidWith %s', (paidWith) => {
    expect(parseExpenseDetails(validInput({ paidWith }), TODAY).paidWith).toBe(paidWith);
  });

  it.each(['cash', 'BANK', 3, ''])('refuses the unknown paidWith %j naming the field', (paidWith) => {
    expect(fieldsOf(validInput({ paidWith }))).toEqual(['paidWith']);
  });

  it('takes a supplier invoice with its supplier, invoice number and due date; no paidWith', () => {
    const details = parseExpenseDetails(invoice(), TODAY);

    expect(details).toMatchObject({
      kind: 'supplier_invoice',
      paidWith: null,
      supplier: { name: 'Kontorrekvisita AS', organizationNumber: ORG, bankAccount: '12345678903', kid: '12345674' },
      invoiceNumber: 'F-1001',
      dueDate: '2026-12-14',
    });
  });

  it('requires supplier, invoiceNumber and dueDate on a supplier invoice, and refuses paidWith there', () => {
    expect(
      fieldsOf(invoice({ supplier: undefined, invoiceNumber: undefined, dueDate: undefined, paidWith: 'bank' })),
    ).toEqual(['paidWith', 'supplier', 'invoiceNumber', 'dueDate']);
  });

  it('refuses supplier fields on an expense', () => {
    expect(
      fieldsOf(validInput({ supplier: { name: 'X', organizationNumber: ORG }, invoiceNumber: '1', dueDate: TODAY })),
    ).toEqual(['supplier', 'invoiceNumber', 'dueDate']);
  });

  it.each([
    [{ organizationNumber: '923609017' }, 'supplier.organizationNumber'],
    [{ organizationNumber: '12345678' }, 'supplier.organizationNumber'],
    [{ bankAccount: '12345678901' }, 'supplier.bankAccount'],
    [{ kid: '12345675' }, 'supplier.kid'],
    [{ kid: '1' }, 'supplier.kid'],
    [{ name: '' }, 'supplier.name'],
  ])('refuses the supplier %j naming %s', (change, field) => {
    const supplier = { name: 'Kontorrekvisita AS', organizationNumber: ORG, ...change };
    expect(fieldsOf(invoice({ supplier }))).toEqual([field]);
  });

  it('refuses a due date before the invoice date, and takes one on the same day', () => {
    expect(fieldsOf(invoice({ dueDate: '2026-11-19' }))).toEqual(['dueDate']);
    expect(fieldsOf(invoice({ dueDate: '2026-11-20' }))).toEqual([]);
  });

  it('takes lines adding up to amount; accountCode and vatRate are then the largest line’s', () => {
    const details = parseExpenseDetails(
      validInput({
        amount: '300.00',
        accountCode: undefined,
        vatRate: undefined,
        lines: [
          { accountCode: '7140', vatRate: '25', amount: '100.00' },
          { accountCode: '7160', vatRate: '15', amount: '200.00', description: 'food' },
        ],
      }),
      TODAY,
    );

    expect(details.accountCode).toBe('7160');
    expect(details.vatRate).toBe('15');
    expect(details.lines).toEqual([
      { accountCode: '7140', vatRate: '25', amount: 10000, description: null },
      { accountCode: '7160', vatRate: '15', amount: 20000, description: 'food' },
    ]);
  });

  it('refuses lines whose amounts do not add up to amount, whatever they are', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: -500, max: 500 }).filter((d) => d !== 0),
        (amounts, delta) => {
          const sum = amounts.reduce((a, b) => a + b, 0);
          fc.pre(sum + delta > 0);
          const lines = amounts.map((ore) => ({ accountCode: '6540', vatRate: '25', amount: formatMoney(ore) }));
          expect(fieldsOf(validInput({ amount: formatMoney(sum), lines }))).toEqual([]);
          expect(fieldsOf(validInput({ amount: formatMoney(sum + delta), lines }))).toEqual(['lines']);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses more than 20 lines, an empty list, and names a bad line’s field', () => {
    const line = { accountCode: '6540', vatRate: '25', amount: '1.00' };
    expect(fieldsOf(validInput({ amount: '21.00', lines: Array.from({ length: 21 }, () => line) }))).toEqual(['lines']);
    expect(fieldsOf(validInput({ lines: [] }))).toEqual(['lines']);
    expect(
      fieldsOf(validInput({ amount: '2.00', lines: [line, { accountCode: '65', vatRate: '25', amount: '1.00' }] })),
    ).toEqual(['lines[1].accountCode']);
  });

  it('refuses a top-level accountCode that is not the largest line’s', () => {
    const lines = [{ accountCode: '7140', vatRate: '25', amount: '119.00' }];
    expect(fieldsOf(validInput({ lines }))).toEqual(['accountCode']);
  });

  it('defaults NOK to domestic, and a foreign purchase without VAT to foreign_no_deduction', () => {
    expect(parseExpenseDetails(validInput(), TODAY).vatTreatment).toBe('domestic');
    expect(
      parseExpenseDetails(validInput({ currency: 'EUR', amountNok: '1400.00', vatRate: '0' }), TODAY).vatTreatment,
    ).toBe('foreign_no_deduction');
  });

  it('asks a foreign purchase with VAT for its treatment (422 vat_treatment_required)', () => {
    expect(codeOf(validInput({ currency: 'EUR', amountNok: '1400.00' }))).toBe('vat_treatment_required');
    expect(
      parseExpenseDetails(
        validInput({ currency: 'EUR', amountNok: '1400.00', vatTreatment: 'foreign_no_deduction' }),
        TODAY,
      ).vatTreatment,
    ).toBe('foreign_no_deduction');
  });

  it('refuses reverse_charge in NOK and at a rate without a reverse-charge code, naming the field', () => {
    expect(() => parseExpenseDetails(validInput({ vatTreatment: 'reverse_charge' }), TODAY)).toThrow(
      expect.objectContaining({
        code: 'vat_treatment_not_applicable',
        fieldErrors: [expect.objectContaining({ field: 'vatTreatment' })],
      }),
    );
    const foreign = { currency: 'USD', amountNok: '1300.00', vatTreatment: 'reverse_charge' };
    expect(() => parseExpenseDetails(validInput({ ...foreign, vatRate: '15' }), TODAY)).toThrow(
      expect.objectContaining({
        code: 'vat_treatment_not_applicable',
        fieldErrors: [expect.objectContaining({ field: 'vatRate' })],
      }),
    );
    const lines = [
      { accountCode: '6540', vatRate: '25', amount: '100.00' },
      { accountCode: '6540', vatRate: '15', amount: '19.00' },
    ];
    expect(() =>
      parseExpenseDetails(validInput({ ...foreign, accountCode: undefined, vatRate: undefined, lines }), TODAY),
    ).toThrow(expect.objectContaining({ fieldErrors: [expect.objectContaining({ field: 'lines[1].vatRate' })] }));
    expect(parseExpenseDetails(validInput(foreign), TODAY).vatTreatment).toBe('reverse_charge');
  });

  it('refuses an unknown vatTreatment and kind', () => {
    expect(fieldsOf(validInput({ vatTreatment: 'exempt' }))).toEqual(['vatTreatment']);
    expect(fieldsOf(validInput({ kind: 'receipt' }))).toEqual(['kind']);
  });

  it('keeps a departmentId', () => {
    expect(parseExpenseDetails(validInput({ departmentId: '12' }), TODAY).departmentId).toBe('12');
    expect(fieldsOf(validInput({ departmentId: '' }))).toEqual(['departmentId']);
  });
});
