import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ProviderEndpoints } from '@app/application';
import type { AppConfig } from '../config/app-config';
import { SandboxRuntime } from '../sandbox/sandbox-runtime';

/**
 * What the providers reach beside their credentials: the sandbox in sandbox mode, and where the
 * providers send the admin back to. Global, because the provider adapters and the use cases all
 * need them. (The sealed connections and the token store are PersistenceModule's, with the vault.)
 */
@Global()
@Module({})
export class ProviderAccessModule {
  /** `role`: the CLI uses the running service's sandbox when there is one (SandboxRuntime). */
  static forRoot(config: AppConfig, role: 'service' | 'cli'): DynamicModule {
    return {
      module: ProviderAccessModule,
      providers: [
        { provide: SandboxRuntime, useFactory: () => SandboxRuntime.start(config, role) },
        { provide: ProviderEndpoints, useValue: new ProviderEndpoints(config.publicUrl) },
      ],
      exports: [SandboxRuntime, ProviderEndpoints],
    };
  }
}
