import { Injectable } from '@nestjs/common';
import { GetCompanyProfile } from '@app/application';
import type { ConsoleRequest } from './console-session.guard';
import type { ConsoleViewer } from './console-page';

/** Builds the viewer of a console request the ConsoleSessionGuard let through. */
@Injectable()
export class ConsoleViewers {
  constructor(private readonly profiles: GetCompanyProfile) {}

  async of(request: ConsoleRequest): Promise<ConsoleViewer> {
    const identity = request.identity;
    if (!identity || !request.console) throw new Error('console page without the ConsoleSessionGuard');
    const profile = await this.profiles.execute(identity.company);
    return { identity, csrf: request.console.csrf, companyName: profile.name, locale: profile.locale };
  }
}
