import { Injectable } from '@nestjs/common';
import { CompanyRepository, CompanySettingsStore, type CompanyLocale } from '@app/domain';

/** What a page shows of a company: its name (its id when it has none stored) and its locale. */
export interface CompanyProfile {
  readonly id: string;
  readonly name: string;
  readonly locale: CompanyLocale;
}

/** The company's name and locale, as the console's pages and its sign-in page show them. */
@Injectable()
export class GetCompanyProfile {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly settings: CompanySettingsStore,
  ) {}

  async execute(companyId: string): Promise<CompanyProfile> {
    const [company, settings] = await Promise.all([this.companies.findById(companyId), this.settings.get(companyId)]);
    return { id: companyId, name: company?.name ?? companyId, locale: settings.locale };
  }
}
