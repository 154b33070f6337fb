import { CompanySettings, CompanySettingsStore, DEFAULT_COMPANY_SETTINGS } from '@app/domain';
import { copy } from './snapshottable';

export class InMemoryCompanySettingsStore extends CompanySettingsStore {
  private readonly settings = new Map<string, CompanySettings>();

  async get(companyId: string): Promise<CompanySettings> {
    return copy(this.settings.get(companyId) ?? DEFAULT_COMPANY_SETTINGS);
  }

  async save(companyId: string, settings: CompanySettings): Promise<void> {
    this.settings.set(companyId, copy(settings));
  }
}
