import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamicModule, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TokenVault } from '@app/domain';
import { AwsKms } from './aws.kms';
import { EnvelopeTokenVault } from './envelope-token-vault';
import { InMemoryWrappedDekRepository } from '@app/testing';
import { Kms } from './ports/kms.port';
import { LocalKeyringKms } from './local-keyring.kms';
import { VaultModule, createKms } from './vault.module';
import { WrappedDekRepository } from './ports/wrapped-dek-repository.port';

@Module({
  providers: [{ provide: WrappedDekRepository, useClass: InMemoryWrappedDekRepository }],
  exports: [WrappedDekRepository],
})
class InMemoryStorageModule {}

const KEYRING_PATH = 'KEYRING_PATH';

@Module({})
class SettingsModule {
  static withKeyring(path: string): DynamicModule {
    return { module: SettingsModule, providers: [{ provide: KEYRING_PATH, useValue: path }], exports: [KEYRING_PATH] };
  }
}

describe('VaultModule', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'vault-module-'));
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('provides a working TokenVault over the configured KMS and the imported repository', async () => {
    const keyringPath = join(directory, 'keyring.json');
    const moduleRef = await Test.createTestingModule({
      imports: [
        VaultModule.register({
          imports: [InMemoryStorageModule, SettingsModule.withKeyring(keyringPath)],
          inject: [KEYRING_PATH],
          useFactory: (path: string) => ({ kind: 'local', keyringPath: path }),
        }),
      ],
    }).compile();
    const vault = moduleRef.get(TokenVault);
    expect(vault).toBeInstanceOf(EnvelopeTokenVault);
    expect(moduleRef.get(Kms)).toBeInstanceOf(LocalKeyringKms);
    const sealed = await vault.seal('acme', 'tripletex', 'consumer_token', 'consumer-token');
    await expect(vault.open('acme', 'tripletex', 'consumer_token', sealed)).resolves.toBe('consumer-token');
    await moduleRef.close();
  });

  it('builds the adapter each setting names', () => {
    expect(createKms({ kind: 'local', keyringPath: join(directory, 'k.json') })).toBeInstanceOf(LocalKeyringKms);
    const aws = createKms({ kind: 'aws', keyId: 'alias/x', region: 'eu-north-1', endpoint: 'http://127.0.0.1:9' });
    expect(aws).toBeInstanceOf(AwsKms);
    (aws as AwsKms).destroy();
  });
});
