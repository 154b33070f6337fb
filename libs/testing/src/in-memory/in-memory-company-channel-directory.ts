import { CompanyChannelDirectory, type CompanyChannels } from '@app/notifications';

/** Company channels held in memory, for tests and development. */
export class InMemoryCompanyChannelDirectory extends CompanyChannelDirectory {
  private readonly companies = new Map<string, CompanyChannels>();

  set(companyId: string, channels: Partial<CompanyChannels>): this {
    this.companies.set(companyId, {
      reviewChannel: null,
      invoicesChannel: null,
      gatewayCallback: null,
      webhookSecret: null,
      ...channels,
    });
    return this;
  }

  /** The company is gone (deleted): it has no channels any more. */
  remove(companyId: string): void {
    this.companies.delete(companyId);
  }

  override async channelsOf(companyId: string): Promise<CompanyChannels | null> {
    const channels = this.companies.get(companyId);
    return channels ? { ...channels } : null;
  }
}
