import { ValidationFailed } from '../errors/domain-error';
import { DEFAULT_COMPANY_SETTINGS, updateCompanySettings } from './company-settings';

describe('company settings', () => {
  it('defaults to a 15-minute execution delay and payment account 1920', () => {
    expect(DEFAULT_COMPANY_SETTINGS).toMatchObject({
      executionDelayMinutes: 15,
      paymentAccount: '1920',
      reviewChannel: null,
    });
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
      });
      throw new Error('expected ValidationFailed');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).fieldErrors?.map((e) => e.field)).toEqual([
        'reviewChannel.kind',
        'gatewayCallback.url',
        'executionDelayMinutes',
        'paymentAccount',
      ]);
    }
  });
});
