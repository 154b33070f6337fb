import type { EntityManager } from 'typeorm';
import { CompanySettings, CompanySettingsStore, DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import { select } from '../shared/sql';

/** The stored document: any setting may be missing (added later); `paymentAccount` from before `paymentAccounts`. */
type StoredSettings = Partial<CompanySettings> & { paymentAccount?: string };

/**
 * CompanySettingsStore over `company_settings`. A company that never saved settings has
 * DEFAULT_COMPANY_SETTINGS; a stored document lacking a setting added later gets that setting's
 * default, so adding an optional setting needs no data migration.
 */
export class TypeOrmCompanySettingsStore extends CompanySettingsStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async get(companyId: string): Promise<CompanySettings> {
    const [row] = await select<{ settings: StoredSettings }>(
      this.manager,
      'SELECT settings FROM company_settings WHERE company_id = $1',
      [companyId],
    );
    const { paymentAccount, ...stored } = row?.settings ?? {};
    // A document saved before the payment accounts by method holds the bank's as `paymentAccount`.
    const paymentAccounts = {
      ...DEFAULT_COMPANY_SETTINGS.paymentAccounts,
      ...(paymentAccount !== undefined && { bank: paymentAccount }),
      ...stored.paymentAccounts,
    };
    return { ...DEFAULT_COMPANY_SETTINGS, ...stored, paymentAccounts };
  }

  async save(companyId: string, settings: CompanySettings): Promise<void> {
    const document: CompanySettings = {
      reviewChannel: settings.reviewChannel,
      invoicesChannel: settings.invoicesChannel,
      gatewayCallback: settings.gatewayCallback,
      executionDelayMinutes: settings.executionDelayMinutes,
      paymentAccounts: {
        bank: settings.paymentAccounts.bank,
        company_card: settings.paymentAccounts.company_card,
        employee: settings.paymentAccounts.employee,
      },
      autoApproveMaxAmount: settings.autoApproveMaxAmount,
      locale: settings.locale,
      openPeriodStart: settings.openPeriodStart,
    };
    await this.manager.query(
      `INSERT INTO company_settings (company_id, settings, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (company_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
      [companyId, JSON.stringify(document)],
    );
  }
}
