import fc from 'fast-check';
import { parseExpenseDetails, type ExpenseDetailsInput } from '../proposal/expense-details';
import { formatMoney } from '../values/money';
import { creditAccountOf, PaymentAccountNotConfigured } from '../context/bookable';
import { plannedPostings, postingDifferences } from './planned-postings';
import type { Posting } from './bookkeeping';

const TODAY = '2026-11-28';
const ACCOUNTS = { bank: '1920', company_card: '1930', employee: '2910' };

function details(overrides: Partial<ExpenseDetailsInput>) {
  return parseExpenseDetails(
    {
      kind: 'expense',
      merchant: 'Rema 1000',
      amount: '125.00',
      currency: 'NOK',
      date: '2026-11-27',
      accountCode: '6540',
      vatRate: '25',
      ...overrides,
    },
    TODAY,
  );
}

/** [account, øre, VAT code, generated] of each posting: the shape docs/bookkeeping.md tabulates. */
const rows = (postings: readonly Posting[]) => postings.map((p) => [p.accountCode, p.amount, p.vatCode, p.generated]);

describe('plannedPostings', () => {
  it('books a NOK 25 % card purchase: net on the expense, VAT on 2710, the gross off the card account', () => {
    const d = details({ paidWith: 'company_card' });

    expect(rows(plannedPostings(d, creditAccountOf(d, ACCOUNTS)))).toEqual([
      ['6540', 10000, '1', false],
      ['2710', 2500, '1', true],
      ['1930', -12500, null, false],
    ]);
  });

  it('rounds the VAT of 15 % food half up, and owes an employee expense to the employee', () => {
    // 99.99 at 15 %: VAT 13.0421… → 13.04.
    const d = details({ amount: '99.99', vatRate: '15', accountCode: '7160', paidWith: 'employee' });
    const postings = plannedPostings(d, creditAccountOf(d, ACCOUNTS), { name: 'Kari Nordmann', providerId: '7' });

    expect(rows(postings)).toEqual([
      ['7160', 8695, '11', false],
      ['2710', 1304, '11', true],
      ['2910', -9999, null, false],
    ]);
    expect(postings[2].party).toEqual({ kind: 'employee', name: 'Kari Nordmann', providerId: '7' });
  });

  it('uses code 13 for 12 % transport and code 0 with no VAT posting for an exempt purchase', () => {
    expect(rows(plannedPostings(details({ amount: '112.00', vatRate: '12', accountCode: '7140' }), '1920'))).toEqual([
      ['7140', 10000, '13', false],
      ['2710', 1200, '13', true],
      ['1920', -11200, null, false],
    ]);
    expect(rows(plannedPostings(details({ vatRate: '0', accountCode: '7790' }), '1920'))).toEqual([
      ['7790', 12500, '0', false],
      ['1920', -12500, null, false],
    ]);
  });

  it('books each line of a split receipt with its own account and code, and one credit for the total', () => {
    const d = details({
      amount: '240.00',
      accountCode: undefined,
      vatRate: undefined,
      lines: [
        { accountCode: '7160', vatRate: '15', amount: '115.00' },
        { accountCode: '6540', vatRate: '25', amount: '125.00' },
      ],
    });

    expect(rows(plannedPostings(d, '1920'))).toEqual([
      ['7160', 10000, '11', false],
      ['2710', 1500, '11', true],
      ['6540', 10000, '1', false],
      ['2710', 2500, '1', true],
      ['1920', -24000, null, false],
    ]);
  });

  it('credits a supplier invoice to accounts payable with the supplier, invoice number, due date and KID', () => {
    const d = details({
      kind: 'supplier_invoice',
      supplier: { name: 'Kontorrekvisita AS', organizationNumber: '923609016', kid: '12345674' },
      invoiceNumber: 'F-1001',
      dueDate: '2026-12-11',
    });
    const credit = plannedPostings(d, creditAccountOf(d, ACCOUNTS)).at(-1);

    expect(credit).toMatchObject({
      accountCode: '2400',
      amount: -12500,
      party: { kind: 'supplier', name: 'Kontorrekvisita AS', organizationNumber: '923609016' },
      invoiceNumber: 'F-1001',
      dueDate: '2026-12-11',
      kid: '12345674',
    });
  });

  it('books a USD reverse charge at 25 %: the NOK paid on the expense, VAT in and out, net zero', () => {
    // 1 234.57 NOK: VAT 308.6425 → 308.64.
    const d = details({ currency: 'USD', amount: '120.00', amountNok: '1234.57', vatTreatment: 'reverse_charge' });

    expect(rows(plannedPostings(d, '1920'))).toEqual([
      ['6540', 123457, '86', false],
      ['2710', 30864, '86', true],
      ['2700', -30864, '86', true],
      ['1920', -123457, null, false],
    ]);
  });

  it('books a EUR hotel abroad gross under code 0, without Norwegian VAT', () => {
    const d = details({
      currency: 'EUR',
      amount: '150.00',
      amountNok: '1755.30',
      vatRate: '10',
      accountCode: '7130',
      vatTreatment: 'foreign_no_deduction',
    });

    expect(rows(plannedPostings(d, '1920'))).toEqual([
      ['7130', 175530, '0', false],
      ['1920', -175530, null, false],
    ]);
  });

  it('adds up to zero, whatever the lines, rates, treatment and NOK amount', () => {
    const rate = fc.constantFrom('0', '12', '15', '25');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), rate), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.constantFrom('domestic', 'foreign_no_deduction', 'reverse_charge'),
        (lines, nok, treatment) => {
          const total = lines.reduce((sum, [amount]) => sum + amount, 0);
          const foreign = treatment !== 'domestic';
          const rc = treatment === 'reverse_charge';
          const d = details({
            amount: formatMoney(total),
            accountCode: undefined,
            vatRate: undefined,
            currency: foreign ? 'USD' : 'NOK',
            ...(foreign && { amountNok: formatMoney(nok) }),
            vatTreatment: treatment,
            lines: lines.map(([amount, r]) => ({
              accountCode: '6540',
              vatRate: rc && r !== '12' ? '25' : r,
              amount: formatMoney(amount),
            })),
          });
          const postings = plannedPostings(d, '1920');
          expect(postings.reduce((sum, p) => sum + p.amount, 0)).toBe(0);
          expect(postings.at(-1)!.amount).toBe(-(foreign ? nok : total));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('creditAccountOf and postingDifferences', () => {
  it('refuses a company card the company has not configured an account for', () => {
    expect(() =>
      creditAccountOf({ kind: 'expense', paidWith: 'company_card' }, { ...ACCOUNTS, company_card: null }),
    ).toThrow(PaymentAccountNotConfigured);
  });

  it('finds no difference when a provider merges VAT postings, and names a changed amount or account', () => {
    const d = details({
      amount: '240.00',
      accountCode: undefined,
      vatRate: undefined,
      lines: [
        { accountCode: '6540', vatRate: '25', amount: '115.00' },
        { accountCode: '6540', vatRate: '25', amount: '125.00' },
      ],
    });
    const planned = plannedPostings(d, '1920');
    const merged: Posting[] = [
      { ...planned[0], amount: 19200 },
      { ...planned[1], amount: 4800, vatCode: null },
      planned[4],
    ];

    expect(postingDifferences(planned, merged)).toEqual([]);
    expect(postingDifferences(planned, [{ ...merged[0], accountCode: '6550' }, merged[1], merged[2]])).toEqual([
      'account 6540, VAT code 1: planned 19200 øre, booked 0 øre',
      'account 6550, VAT code 1: planned 0 øre, booked 19200 øre',
    ]);
  });

  it("compares a supplier invoice's invoice number, due date and KID where the provider returns them", () => {
    const invoice = details({
      kind: 'supplier_invoice',
      amount: '10000.00',
      accountCode: '6800',
      supplier: { name: 'Kontorrekvisita AS', organizationNumber: '923609016', kid: '12345674' },
      invoiceNumber: 'F-1001',
      dueDate: '2026-12-11',
    });
    const planned = plannedPostings(invoice, '2400');
    const onSubLedger = (changes: Partial<Posting>) =>
      planned.map((p) => (p.accountCode === '2400' ? { ...p, accountCode: '2400:20001', ...changes } : p));

    expect(postingDifferences(planned, onSubLedger({}))).toEqual([]);
    expect(postingDifferences(planned, onSubLedger({ kid: undefined, dueDate: undefined }))).toEqual([]);
    expect(postingDifferences(planned, onSubLedger({ kid: null, dueDate: '2026-12-12' }))).toEqual([
      'account 2400, supplier: due date planned 2026-12-11, booked 2026-12-12',
      'account 2400, supplier: KID planned 12345674, booked none',
    ]);
  });

  it('counts a booked sub-ledger as the planned account, but not as another sub-ledger of it', () => {
    const planned = plannedPostings(details({ amount: '560.00', accountCode: '7140', vatRate: '12' }), '1920');
    const onSubLedger = planned.map((p) => (p.accountCode === '1920' ? { ...p, accountCode: '1920:10001' } : p));

    expect(postingDifferences(planned, onSubLedger)).toEqual([]);
    expect(
      postingDifferences(
        planned,
        onSubLedger.map((p) => ({ ...p, accountCode: p.accountCode.replace('1920', '1921') })),
      ),
    ).toEqual([
      'account 1920: planned -56000 øre, booked 0 øre',
      'account 1921:10001: planned 0 øre, booked -56000 øre',
    ]);
    const onCard = plannedPostings(details({ amount: '560.00', accountCode: '7140', vatRate: '12' }), '1920:10002');
    expect(postingDifferences(onCard, onSubLedger)).toEqual([
      'account 1920:10002: planned -56000 øre, booked 0 øre',
      'account 1920:10001: planned 0 øre, booked -56000 øre',
    ]);
  });
});
