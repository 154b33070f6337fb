import { Module, type DynamicModule } from '@nestjs/common';
import { CompanyRepository, CompanySettingsStore } from '@app/domain';
import {
  CompanyChannelDirectory,
  DerivedWebhookSecretSource,
  deriveWebhookSecretText,
  NotificationsModule,
  SettingsChannelDirectory,
  WebhookSecretSource,
} from '@app/notifications';
import type { AppConfig } from '../config/app-config';
import { configuredOrGeneratedSecret } from '../platform/secret-file';

function webhookMasterKey(config: AppConfig): Buffer {
  return configuredOrGeneratedSecret(config.webhookSigningKey, config.dataDir, 'webhook-signing-key');
}

/** Where each company's webhook signing secret comes from: derived from one master key. */
function webhookSecretSource(config: AppConfig): DerivedWebhookSecretSource {
  return new DerivedWebhookSecretSource(webhookMasterKey(config));
}

/** The secret text a company's receiver verifies `X-Signature` with (for the operator to hand over). */
export function webhookSecretText(config: AppConfig, companyId: string): string {
  return deriveWebhookSecretText(webhookMasterKey(config), companyId);
}

/** A company's channels and webhook secret, for the dispatcher. */
@Module({})
class OutboxChannelsModule {}

/**
 * Delivery of the notification outbox: the company's channels come from its settings
 * (reviewChannel, invoicesChannel, gatewayCallback), webhook bodies are signed with the company's
 * secret, and the dispatcher polls the outbox while the service runs (OUTBOX_DISPATCH_ENABLED).
 */
@Module({})
export class OutboxDeliveryModule {
  /** `dispatch: false` (the CLI): the outbox without its dispatcher's loop, whatever OUTBOX_DISPATCH_ENABLED says. */
  static forRoot(config: AppConfig, { dispatch }: { dispatch: boolean }): DynamicModule {
    const channels: DynamicModule = {
      module: OutboxChannelsModule,
      providers: [
        { provide: WebhookSecretSource, useFactory: () => webhookSecretSource(config) },
        {
          provide: CompanyChannelDirectory,
          inject: [CompanyRepository, CompanySettingsStore, WebhookSecretSource],
          useFactory: (companies: CompanyRepository, settings: CompanySettingsStore, secrets: WebhookSecretSource) =>
            new SettingsChannelDirectory(companies, settings, secrets),
        },
      ],
      exports: [CompanyChannelDirectory, WebhookSecretSource],
    };
    return {
      module: OutboxDeliveryModule,
      imports: [
        NotificationsModule.register({
          imports: [channels],
          autoStart: dispatch && config.outboxDispatch,
          dispatcher: {
            pollIntervalMs: config.outboxPollMs,
            leaseMs: config.outboxLeaseMs,
            developmentChannel: config.developmentChannel,
          },
          // Development may deliver to local receivers; production only to public addresses.
          allowInternalTargets: !config.production,
        }),
      ],
      exports: [NotificationsModule],
    };
  }
}
