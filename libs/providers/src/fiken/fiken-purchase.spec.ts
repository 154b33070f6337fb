import { ExpenseBooking } from '@app/domain';
import { aBooking } from '@app/testing';
import { postingsOfPurchase } from './fiken-postings';
import { FikenChart, resolvePaymentAccount } from './fiken-purchase';

const CHART = [
  { code: '1920:10001', name: 'Driftskonto' },
  { code: '1920:10002', name: 'Firmakort' },
  { code: '2910:30001', name: 'Kari Nordmann' },
  { code: '2910:30002', name: 'Ola Hansen' },
  { code: '2400', name: 'Leverandørgjeld' },
];

const chart: FikenChart = {
  accounts: (number) => Promise.resolve(CHART.filter((a) => a.code.startsWith(String(number)))),
  bankAccounts: () =>
    Promise.resolve([
      { accountCode: '1920:10001', type: 'normal', inactive: false },
      { accountCode: '1920:10002', type: 'credit_card', inactive: false },
    ]),
  supplierId: () => Promise.reject(new Error('not used')),
};

function booking(overrides: Partial<ExpenseBooking>): ExpenseBooking {
  return aBooking({
    reference: 'ref-1',
    date: '2026-11-20',
    description: null,
    merchant: 'Rema 1000',
    accountCode: '5915',
    vatRate: '15',
    grossAmount: 34_500,
    currency: 'NOK',
    amountNok: null,
    paymentAccount: '1920',
    ...overrides,
  });
}

const kari = { providerId: null, name: 'Kari Nordmann', email: 'kari@example.no' };

describe('the Fiken payment account of an expense', () => {
  it.each([
    ['the bank: the normal bank account among several on 1920', { paidWith: 'bank' as const }, '1920:10001'],
    ['the company card: the credit card account', { paidWith: 'company_card' as const }, '1920:10002'],
    [
      "an employee's outlay: the employee's sub-ledger on 2910, by name",
      { paidWith: 'employee' as const, paymentAccount: '2910', employee: kari },
      '2910:30001',
    ],
    ['a configured sub-ledger, as it is', { paymentAccount: '1920:10002' }, '1920:10002'],
    ['a plain account without sub-ledgers, as it is', { paymentAccount: '2400' }, '2400'],
  ])('%s', async (_name, overrides, expected) => {
    await expect(resolvePaymentAccount(booking(overrides), chart)).resolves.toBe(expected);
  });

  it("refuses an outlay of an employee without a sub-ledger of their own when 2910 has employees' sub-ledgers", async () => {
    const error = await resolvePaymentAccount(
      booking({
        paidWith: 'employee',
        paymentAccount: '2910',
        employee: { providerId: null, name: 'Nora Berg', email: 'nora@example.no' },
      }),
      chart,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unknown_account_code' });
    expect((error as Error).message).toContain('2910:30001 Kari Nordmann');
  });

  it('names the employee from the 2910 sub-ledger when the postings are read back', () => {
    const postings = postingsOfPurchase(
      { lines: [{ account: '5915', description: 'Rema 1000 (utlegg Kari Nordmann)' }] },
      [
        {
          lines: [
            { account: '5915', amount: 30_000, vatCode: '11' },
            { account: '2710', amount: 4_500 },
            { account: '2910:30001', amount: -34_500 },
          ],
        },
      ],
      new Map([['2910:30001', 'Kari Nordmann']]),
    );
    expect(postings).toEqual([
      {
        accountCode: '5915',
        amount: 30_000,
        vatCode: '11',
        party: null,
        description: 'Rema 1000 (utlegg Kari Nordmann)',
        generated: false,
      },
      { accountCode: '2710', amount: 4_500, vatCode: null, party: null, description: null, generated: true },
      {
        accountCode: '2910:30001',
        amount: -34_500,
        vatCode: null,
        party: { kind: 'employee', name: 'Kari Nordmann', providerId: null },
        description: null,
        generated: false,
      },
    ]);
  });
});
