import { DynamicModule, FactoryProvider, Module, ModuleMetadata } from '@nestjs/common';
import { TokenVault } from '@app/domain';
import { AwsKms, AwsKmsSettings } from './aws.kms';
import { EnvelopeTokenVault } from './envelope-token-vault';
import { Kms } from './ports/kms.port';
import { LocalKeyringKms } from './local-keyring.kms';
import { WrappedDekRepository } from './ports/wrapped-dek-repository.port';

/** Which KMS wraps the DEKs. */
export type KmsSettings =
  { readonly kind: 'local'; readonly keyringPath: string } | ({ readonly kind: 'aws' } & AwsKmsSettings);

export function createKms(settings: KmsSettings): Kms {
  switch (settings.kind) {
    case 'local':
      return new LocalKeyringKms(settings.keyringPath);
    case 'aws':
      return new AwsKms(settings);
  }
}

export interface VaultModuleOptions {
  /** Modules that export `WrappedDekRepository` (the persistence module) and whatever `inject` needs. */
  readonly imports: NonNullable<ModuleMetadata['imports']>;
  readonly inject?: FactoryProvider['inject'];
  /** Builds the KMS settings, typically from the validated configuration. */
  readonly useFactory: (...dependencies: never[]) => KmsSettings | Promise<KmsSettings>;
}

/** Provides `TokenVault` (EnvelopeTokenVault) and `Kms` (the configured adapter). */
@Module({})
export class VaultModule {
  static register(options: VaultModuleOptions): DynamicModule {
    return {
      module: VaultModule,
      imports: [...options.imports],
      providers: [
        {
          provide: Kms,
          inject: [...(options.inject ?? [])],
          useFactory: async (...dependencies: never[]) => createKms(await options.useFactory(...dependencies)),
        },
        {
          provide: TokenVault,
          inject: [Kms, WrappedDekRepository],
          useFactory: (kms: Kms, deks: WrappedDekRepository) => new EnvelopeTokenVault(kms, deks),
        },
      ],
      exports: [TokenVault, Kms],
    };
  }
}
