import { Injectable } from '@nestjs/common';
import { CompanyRepository, CompanySettingsStore } from '@app/domain';
import type { ConsoleRequest } from './console-session.guard';
import type { ConsoleViewer } from './console-page';

/** Builds the viewer of a console request the ConsoleSessionGuard let through. */
@Injectable()
export class ConsoleViewers {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly settings: CompanySettingsStore,
  ) {}

  async of(request: ConsoleRequest): Promise<ConsoleViewer> {
    const identity = request.identity;
    if (!identity || !request.console) throw new Error('console page without the ConsoleSessionGuard');
    const [company, settings] = await Promise.all([
      this.companies.findById(identity.company),
      this.settings.get(identity.company),
    ]);
    return {
      identity,
      csrf: request.console.csrf,
      companyName: company?.name ?? identity.company,
      locale: settings.locale,
    };
  }
}
