import { CompanySettings, CompanySettingsStore, DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import { companies, ContractOptions } from './contract-support';

/** The CompanySettingsStore contract, run against the in-memory and the TypeORM adapters. */
export function describeCompanySettingsStoreContract(
  name: string,
  factory: () => CompanySettingsStore | Promise<CompanySettingsStore>,
  options: ContractOptions = {},
): void {
  describe(`CompanySettingsStore contract: ${name}`, () => {
    let store: CompanySettingsStore;
    let company: string;
    let otherCompany: string;

    beforeEach(async () => {
      store = await factory();
      [company, otherCompany] = await companies(options, 2);
    });

    afterEach(async () => {
      await options.teardown?.();
    });

    it('gives the defaults to a company that saved nothing', async () => {
      expect(await store.get(company)).toEqual(DEFAULT_COMPANY_SETTINGS);
    });

    it('gives back what was saved, and only to that company', async () => {
      const settings: CompanySettings = {
        reviewChannel: { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/x' },
        invoicesChannel: null,
        gatewayCallback: { kind: 'webhook', url: 'https://gateway.example/callback' },
        executionDelayMinutes: 0,
        paymentAccounts: { bank: '1920:10001', company_card: '1920:10002', employee: '2910' },
        autoApproveMaxAmount: 2_500_050,
        locale: 'en-GB',
        openPeriodStart: '2026-01-01',
      };
      await store.save(company, settings);
      await store.save(company, settings);

      expect(await store.get(company)).toEqual(settings);
      expect(await store.get(otherCompany)).toEqual(DEFAULT_COMPANY_SETTINGS);
    });

    it('keeps "no auto-approval limit" (null) apart from "the default limit"', async () => {
      await store.save(company, { ...DEFAULT_COMPANY_SETTINGS, autoApproveMaxAmount: null });

      expect((await store.get(company)).autoApproveMaxAmount).toBeNull();

      await store.save(company, { ...DEFAULT_COMPANY_SETTINGS, autoApproveMaxAmount: 0 });

      expect((await store.get(company)).autoApproveMaxAmount).toBe(0);
    });
  });
}
