import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock, IdGenerator, ProviderConnectionRepository, ProviderTokenStore, TokenVault } from '@app/domain';
import { ProviderEndpoints } from '@app/application';
import { TypeOrmProviderConnectionRepository, TypeOrmProviderTokenStore } from '@app/persistence';
import { VaultModule } from '@app/vault';
import type { AppConfig } from '../config/app-config';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';

/**
 * Access to the providers' credentials: the token vault (KEK_SOURCE's KMS wrapping the company
 * DEKs), the sealed connections and Fiken's token store, the sandbox in sandbox mode, and where
 * the providers send the admin back to. Global, because the provider adapters and the use cases all need them.
 *
 * The connection adapters are bound here rather than in PersistenceModule because they need the
 * TokenVault, whose DEK repository PersistenceModule provides.
 */
@Global()
@Module({})
export class ProviderAccessModule {
  /** `role`: the CLI uses the running service's sandbox when there is one (SandboxRuntime). */
  static forRoot(config: AppConfig, role: 'service' | 'cli'): DynamicModule {
    return {
      module: ProviderAccessModule,
      imports: [VaultModule.register({ imports: [], useFactory: () => config.kek })],
      providers: [
        { provide: SandboxRuntime, useFactory: () => SandboxRuntime.start(config, role) },
        { provide: ProviderEndpoints, useValue: new ProviderEndpoints(config.publicUrl) },
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
