import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { AccountingProvider, Clock, ProviderTokenStore } from '@app/domain';
import { FikenConfig } from './fiken/fiken.config';
import { FikenProvider } from './fiken/fiken.provider';
import { RoutingAccountingProvider } from './routing-accounting-provider';
import { TripletexConfig } from './tripletex/tripletex.config';
import { TripletexProvider } from './tripletex/tripletex.provider';

export interface ProvidersModuleOptions {
  readonly tripletex: TripletexConfig;
  readonly fiken: FikenConfig;
}

export interface ProvidersModuleAsyncOptions {
  /** Modules that export what `useFactory` injects, and `ProviderTokenStore` (persistence). */
  readonly imports?: ModuleMetadata['imports'];
  readonly inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory(...args: never[]): ProvidersModuleOptions | Promise<ProvidersModuleOptions>;
}

const OPTIONS = Symbol('ProvidersModuleOptions');

/**
 * Provides `AccountingProvider` (routing to `TripletexProvider` / `FikenProvider` by the
 * connection's provider). `ProviderTokenStore` and `Clock` must be provided by an imported (or
 * global) module.
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
          provide: TripletexProvider,
          useFactory: (o: ProvidersModuleOptions, clock: Clock) => new TripletexProvider(o.tripletex, clock),
          inject: [OPTIONS, Clock],
        },
        {
          provide: FikenProvider,
          useFactory: (o: ProvidersModuleOptions, store: ProviderTokenStore, clock: Clock) =>
            new FikenProvider(o.fiken, store, clock),
          inject: [OPTIONS, ProviderTokenStore, Clock],
        },
        RoutingAccountingProvider,
        { provide: AccountingProvider, useExisting: RoutingAccountingProvider },
      ],
      exports: [AccountingProvider, TripletexProvider, FikenProvider],
    };
  }

  static register(options: ProvidersModuleOptions, imports: ModuleMetadata['imports'] = []): DynamicModule {
    return ProvidersModule.registerAsync({ imports, useFactory: () => options });
  }
}
