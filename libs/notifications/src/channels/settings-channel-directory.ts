import type { CompanyRepository, CompanySettingsStore } from '@app/domain';
import { CompanyChannelDirectory, type CompanyChannels } from '../ports/company-channel-directory.port';
import type { WebhookSecretSource } from '../ports/webhook-secret-source.port';

/**
 * Channels from the company settings (`GET/PUT /config/company`) and the signing key from a
 * WebhookSecretSource, read at delivery time so that a corrected setting applies to the next
 * attempt. A company that does not exist — unknown, or deleted with its record (and settings) kept
 * for its audit events — has no channels: its pending notifications are not delivered. Wire it
 * with a factory:
 * `{ provide: CompanyChannelDirectory, inject: [CompanyRepository, CompanySettingsStore, WebhookSecretSource],
 *    useFactory: (c, s, k) => new SettingsChannelDirectory(c, s, k) }`.
 */
export class SettingsChannelDirectory extends CompanyChannelDirectory {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly settings: CompanySettingsStore,
    private readonly secrets: WebhookSecretSource,
  ) {
    super();
  }

  override async channelsOf(companyId: string): Promise<CompanyChannels | null> {
    if (!(await this.companies.exists(companyId))) return null;
    const [settings, webhookSecret] = await Promise.all([
      this.settings.get(companyId),
      this.secrets.secretFor(companyId),
    ]);
    return {
      reviewChannel: settings.reviewChannel,
      invoicesChannel: settings.invoicesChannel,
      gatewayCallback: settings.gatewayCallback,
      webhookSecret,
    };
  }
}
