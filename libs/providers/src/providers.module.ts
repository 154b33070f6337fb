import { DynamicModule, FactoryProvider, Module, ModuleMetadata } from '@nestjs/common';
import { AccountingProvider, Clock, ProviderCatalog, ProviderGrantExchange, ProviderTokenStore } from '@app/domain';
import { PROVIDERS } from './providers';
import { ProviderRegistry, type AnyProviderDefinition, type ProviderSettings } from './provider-registry';
import { RoutingAccountingProvider } from './routing-accounting-provider';
import { SharedRequestSlots } from './ports/shared-request-slots.port';

export interface ProvidersModuleOptions {
  /** Each registered provider's settings, by kind (`{ tripletex: TripletexSettings, fiken: FikenSettings }`). */
  readonly settings: ProviderSettings;
  /** The providers to register; `PROVIDERS` unless a test registers its own too. */
  readonly definitions?: readonly AnyProviderDefinition[];
}

export interface ProvidersModuleAsyncOptions {
  /** Modules that export what `useFactory` injects, and `ProviderTokenStore` (persistence). */
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: FactoryProvider['inject'];
  useFactory(...args: never[]): ProvidersModuleOptions | Promise<ProvidersModuleOptions>;
}

const OPTIONS = Symbol('ProvidersModuleOptions');

/**
 * Builds the registered providers (`ProviderRegistry`) and provides their ports: `AccountingProvider`
 * (routing each call by the connection's provider), `ProviderGrantExchange` and `ProviderCatalog`.
 * `ProviderTokenStore` and `Clock` must be provided by an imported (or global) module; so is
 * `SharedRequestSlots` when the service runs (the persistence module's), else each process keeps
 * its provider's request limit to itself.
 */
@Module({})
export class ProvidersModule {
  static registerAsync(options: ProvidersModuleAsyncOptions): DynamicModule {
    return {
      module: ProvidersModule,
      imports: options.imports ?? [],
      providers: [
        { provide: OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        {
          provide: ProviderRegistry,
          useFactory: (
            o: ProvidersModuleOptions,
            tokenStore: ProviderTokenStore,
            clock: Clock,
            requestSlots: SharedRequestSlots | undefined,
          ) => new ProviderRegistry(o.definitions ?? PROVIDERS, o.settings, { tokenStore, clock, requestSlots }),
          inject: [OPTIONS, ProviderTokenStore, Clock, { token: SharedRequestSlots, optional: true }],
        },
        { provide: ProviderCatalog, useExisting: ProviderRegistry },
        {
          provide: ProviderGrantExchange,
          useFactory: (registry: ProviderRegistry) => registry.grantExchange(),
          inject: [ProviderRegistry],
        },
        RoutingAccountingProvider,
        { provide: AccountingProvider, useExisting: RoutingAccountingProvider },
      ],
      exports: [AccountingProvider, ProviderCatalog, ProviderGrantExchange, ProviderRegistry],
    };
  }

  static register(options: ProvidersModuleOptions, imports: ModuleMetadata['imports'] = []): DynamicModule {
    return ProvidersModule.registerAsync({ imports, useFactory: () => options });
  }
}
