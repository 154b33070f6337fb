import { CompanySettings } from '../settings/company-settings';

/** Company settings (docs/api.md §5). A company that never saved any has DEFAULT_COMPANY_SETTINGS. */
export abstract class CompanySettingsStore {
  abstract get(companyId: string): Promise<CompanySettings>;

  abstract save(companyId: string, settings: CompanySettings): Promise<void>;
}
