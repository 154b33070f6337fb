import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator, ProviderConnectionRepository, ProviderTokenStore, TokenVault } from '@app/domain';
import { ProviderEndpoints } from '@app/application';
import { TypeOrmProviderConnectionRepository, TypeOrmProviderTokenStore } from '@app/persistence';
import { VaultModule } from '@app/vault';
import type { AppConfig } from '../config/app-config';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';

/** Where the adapters call: the configured providers, or the in-process sandbox. */
function providerEndpoints(config: AppConfig, sandbox: SandboxRuntime): ProviderEndpoints {
  const running = sandbox.running;
  if (running) {
    return new ProviderEndpoints(
      { apiUrl: running.tripletexApi, consentUrl: running.tripletexConsent },
      {
        apiUrl: running.fikenApi,
        authorizeUrl: `${running.fikenOAuth}/authorize`,
        tokenUrl: `${running.fikenOAuth}/token`,
        clientId: SandboxRuntime.credentials.fikenClientId,
      },
      config.publicUrl,
    );
  }
  return new ProviderEndpoints(
    { apiUrl: config.tripletexApiUrl, consentUrl: null },
    {
      apiUrl: config.fikenApiUrl,
      authorizeUrl: `${config.fikenOAuthUrl}/authorize`,
      tokenUrl: `${config.fikenOAuthUrl}/token`,
      clientId: config.fikenClientId ?? '',
    },
    config.publicUrl,
  );
}

/**
 * Access to the providers' credentials: the token vault (KEK_SOURCE's KMS wrapping the company
 * DEKs), the sealed connections and Fiken's token store, the sandbox in sandbox mode, and the
 * provider endpoints. Global, because the provider adapters and the use cases all need them.
 *
 * The connection adapters are bound here rather than in PersistenceModule because they need the
 * TokenVault, whose DEK repository PersistenceModule provides.
 */
@Global()
@Module({})
export class ProviderAccessModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ProviderAccessModule,
      imports: [VaultModule.register({ imports: [], useFactory: () => config.kek })],
      providers: [
        { provide: SandboxRuntime, useFactory: () => SandboxRuntime.start(config) },
        {
          provide: ProviderEndpoints,
          useFactory: (sandbox: SandboxRuntime) => providerEndpoints(config, sandbox),
          inject: [SandboxRuntime],
        },
        {
          provide: ProviderConnectionRepository,
          useFactory: (dataSource: DataSource, vault: TokenVault, clock: Clock, ids: IdGenerator) =>
            new TypeOrmProviderConnectionRepository(dataSource, vault, clock, ids),
          inject: [DataSource, TokenVault, Clock, IdGenerator],
        },
        {
          provide: ProviderTokenStore,
          useFactory: (dataSource: DataSource, vault: TokenVault, clock: Clock, ids: IdGenerator) =>
            new TypeOrmProviderTokenStore(dataSource, vault, clock, ids),
          inject: [DataSource, TokenVault, Clock, IdGenerator],
        },
      ],
      exports: [VaultModule, SandboxRuntime, ProviderEndpoints, ProviderConnectionRepository, ProviderTokenStore],
    };
  }
}
