import { ValidationFailed } from '../errors/domain-error';
import { DomainError } from '../errors/domain-error';
import {
  DEFAULT_COMPANY_SETTINGS,
  openPeriodStartOf,
  resolvePaymentAccounts,
  updateCompanySettings,
} from './company-settings';

describe('company settings', () => {
  it('defaults to a 15-minute execution delay, payment accounts 1920 / none / 2910 and an auto-approval limit of NOK 10 000', () => {
    expect(DEFAULT_COMPANY_SETTINGS).toMatchObject({
      executionDelayMinutes: 15,
      paymentAccounts: { bank: '1920', company_card: null, employee: '2910' },
      reviewChannel: null,
      autoApproveMaxAmount: 1_000_000,
    });
  });

  it.each([
    ['25000.50', 2_500_050],
    ['0', 0],
    ['0.00', 0],
    [null, null],
  ])('sets the auto-approval limit from %p', (value, limit) => {
    expect(updateCompanySettings(DEFAULT_COMPANY_SETTINGS, { autoApproveMaxAmount: value }).autoApproveMaxAmount).toBe(
      limit,
    );
  });

  it.each([[-1], ['-1.00'], [10000], ['10 000'], ['1e4'], ['10000.001'], [''], [{}]])(
    'refuses the auto-approval limit %p',
    (value) => {
      try {
        updateCompanySettings(DEFAULT_COMPANY_SETTINGS, { autoApproveMaxAmount: value });
        throw new Error('expected ValidationFailed');
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationFailed);
        expect((error as ValidationFailed).fieldErrors?.map((e) => e.field)).toEqual(['autoApproveMaxAmount']);
      }
    },
  );

  it('opens the period by default on January 1 of the previous calendar year, in Norway', () => {
    expect(DEFAULT_COMPANY_SETTINGS.openPeriodStart).toBeNull();
    expect(openPeriodStartOf(DEFAULT_COMPANY_SETTINGS, '2026-11-20')).toBe('2025-01-01');
    expect(openPeriodStartOf(DEFAULT_COMPANY_SETTINGS, '2027-01-01')).toBe('2026-01-01');
    expect(openPeriodStartOf({ openPeriodStart: '2026-07-01' }, '2026-11-20')).toBe('2026-07-01');
  });

  it.each([
    ['2026-01-01', '2026-01-01'],
    [null, null],
  ])('sets the open period start from %p', (value, start) => {
    const set = updateCompanySettings(
      { ...DEFAULT_COMPANY_SETTINGS, openPeriodStart: '2024-05-01' },
      {
        openPeriodStart: value,
      },
    );
    expect(set.openPeriodStart).toBe(start);
  });

  it.each([['2026-02-30'], ['01.01.2026'], [20260101], ['']])('refuses the open period start %p', (value) => {
    expect(() => updateCompanySettings(DEFAULT_COMPANY_SETTINGS, { openPeriodStart: value })).toThrow(
      /openPeriodStart must be/,
    );
  });

  it('applies a partial update and keeps the rest', () => {
    const updated = updateCompanySettings(DEFAULT_COMPANY_SETTINGS, {
      executionDelayMinutes: 0,
      reviewChannel: { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/x' },
    });

    expect(updated).toEqual({
      ...DEFAULT_COMPANY_SETTINGS,
      executionDelayMinutes: 0,
      reviewChannel: { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/x' },
    });
  });

  it('clears a channel with null', () => {
    const withChannel = {
      ...DEFAULT_COMPANY_SETTINGS,
      invoicesChannel: { kind: 'webhook' as const, url: 'https://x.example/' },
    };
    expect(updateCompanySettings(withChannel, { invoicesChannel: null }).invoicesChannel).toBeNull();
  });

  it('reports every bad key at once', () => {
    try {
      updateCompanySettings(DEFAULT_COMPANY_SETTINGS, {
        reviewChannel: { kind: 'email', url: 'https://x.example' },
        gatewayCallback: { kind: 'webhook', url: 'ftp://x.example' },
        executionDelayMinutes: -1,
        paymentAccount: '19',
        autoApproveMaxAmount: '-5',
      });
      throw new Error('expected ValidationFailed');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).fieldErrors?.map((e) => e.field)).toEqual([
        'reviewChannel.kind',
        'gatewayCallback.url',
        'executionDelayMinutes',
        'paymentAccount',
        'autoApproveMaxAmount',
      ]);
    }
  });

  describe('payment accounts', () => {
    const fieldsOf = (run: () => unknown): string[] => {
      try {
        run();
      } catch (error) {
        return ((error as DomainError).fieldErrors ?? []).map((e) => e.field);
      }
      throw new Error('expected an error');
    };

    it('sets the bank account through paymentAccount, and any of them through paymentAccounts', () => {
      const next = updateCompanySettings(DEFAULT_COMPANY_SETTINGS, {
        paymentAccount: '1921',
        paymentAccounts: { company_card: '1930', employee: '2915' },
      });
      expect(next.paymentAccounts).toEqual({ bank: '1921', company_card: '1930', employee: '2915' });
      expect(updateCompanySettings(next, { paymentAccounts: { company_card: null } }).paymentAccounts).toEqual({
        bank: '1921',
        company_card: null,
        employee: '2915',
      });
    });

    it('takes a Fiken sub-ledger', () => {
      const next = updateCompanySettings(DEFAULT_COMPANY_SETTINGS, { paymentAccounts: { bank: '1920:10001' } });
      expect(next.paymentAccounts.bank).toBe('1920:10001');
    });

    it('refuses malformed codes, unknown methods, a null bank or employee account, and two different bank accounts', () => {
      expect(
        fieldsOf(() =>
          updateCompanySettings(DEFAULT_COMPANY_SETTINGS, {
            paymentAccounts: { bank: null, employee: '29', cash: '1900', company_card: '1930:x' },
          }),
        ),
      ).toEqual([
        'paymentAccounts.cash',
        'paymentAccounts.bank',
        'paymentAccounts.company_card',
        'paymentAccounts.employee',
      ]);
      expect(
        fieldsOf(() =>
          updateCompanySettings(DEFAULT_COMPANY_SETTINGS, {
            paymentAccount: '1920',
            paymentAccounts: { bank: '1921' },
          }),
        ),
      ).toEqual(['paymentAccount']);
      expect(fieldsOf(() => updateCompanySettings(DEFAULT_COMPANY_SETTINGS, { paymentAccounts: '1920' }))).toEqual([
        'paymentAccounts',
      ]);
    });

    const fikenChart = [
      { code: '1920:10001', name: 'Driftskonto' },
      { code: '1920:10002', name: 'Firmakort' },
      { code: '2910', name: 'Gjeld til ansatte' },
      { code: '1500:10001', name: 'Kunde' },
    ];

    it('keeps a code the chart has, and resolves a plain number with exactly one sub-ledger to it', () => {
      const chart = [...fikenChart.filter((a) => a.code !== '1920:10002'), { code: '1930', name: 'Firmakort' }];
      expect(resolvePaymentAccounts({ bank: '1920', company_card: '1930', employee: '2910' }, chart)).toEqual({
        bank: '1920:10001',
        company_card: '1930',
        employee: '2910',
      });
    });

    it('refuses a code missing from the chart or with several sub-ledgers, naming the field', () => {
      expect(() => resolvePaymentAccounts({ bank: '1920', company_card: null, employee: '2910' }, fikenChart)).toThrow(
        /account 1920 has 2 sub-ledgers .*1920:10001, 1920:10002.*: name one/,
      );
      expect(
        fieldsOf(() =>
          resolvePaymentAccounts({ bank: '1920:10001', company_card: '1930', employee: '2910' }, fikenChart),
        ),
      ).toEqual(['paymentAccounts.company_card']);
      expect(
        fieldsOf(() => resolvePaymentAccounts({ bank: '1920', company_card: null, employee: '2910' }, fikenChart)),
      ).toEqual(['paymentAccount']);
    });

    it('checks only the accounts that changed', () => {
      expect(
        resolvePaymentAccounts({ bank: '1920', company_card: '1920:10002', employee: '2910' }, fikenChart, [
          'company_card',
        ]),
      ).toEqual({ bank: '1920', company_card: '1920:10002', employee: '2910' });
    });
  });
});
