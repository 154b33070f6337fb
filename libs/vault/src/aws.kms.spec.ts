import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { SecretUnreadable } from '@app/domain';
import { AwsKms, AwsKmsSettings } from './aws.kms';
import { EnvelopeTokenVault } from './envelope-token-vault';
import { InMemoryWrappedDekRepository } from '@app/testing';
import { KmsError } from './ports/kms.port';
import { rewrapAll, rotateKek } from './rewrap';
import { describeKmsContract, FakeKmsServer } from '@app/testing';

const CREDENTIALS = { accessKeyId: 'AKIDFAKEKMSTEST', secretAccessKey: 'fake-secret-access-key-6b1f0e2d9c' };

describe('AwsKms against a local fake KMS endpoint', () => {
  const fake = new FakeKmsServer();
  const clients: AwsKms[] = [];
  let endpoint: string;
  let first: ReturnType<FakeKmsServer['createKey']>;
  let second: ReturnType<FakeKmsServer['createKey']>;

  beforeAll(async () => {
    endpoint = await fake.start();
    first = fake.createKey('accounting-dek-2026');
    second = fake.createKey('accounting-dek-2027');
  });

  afterAll(async () => {
    for (const client of clients) client.destroy();
    await fake.stop();
  });

  beforeEach(() => {
    fake.requests.length = 0;
  });

  function awsKms(settings: Partial<AwsKmsSettings> = {}): AwsKms {
    const kms = new AwsKms({
      keyId: first.alias,
      region: 'eu-north-1',
      endpoint,
      credentials: CREDENTIALS,
      ...settings,
    });
    clients.push(kms);
    return kms;
  }

  describeKmsContract('AwsKms', () => ({ kms: awsKms(), anotherKekId: async () => second.arn }));

  it('wraps with a signed TrentService.Encrypt bound to the company, and unwraps with Decrypt', async () => {
    const kms = awsKms();
    const dek = randomBytes(32);
    const wrapped = await kms.wrap(dek, 'acme');
    expect(wrapped.kekId).toBe(first.arn);
    expect((await kms.unwrap(wrapped, 'acme')).equals(dek)).toBe(true);
    const [encrypt, decrypt] = fake.requests;
    expect(encrypt.target).toBe('TrentService.Encrypt');
    expect(encrypt.contentType).toBe('application/x-amz-json-1.1');
    expect(encrypt.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFAKEKMSTEST\/\d{8}\/eu-north-1\/kms\/aws4_request/,
    );
    expect(encrypt.body).toMatchObject({
      KeyId: first.alias,
      EncryptionContext: { purpose: 'dek-wrap', company_id: 'acme' },
    });
    expect(decrypt.target).toBe('TrentService.Decrypt');
    expect(decrypt.body).toMatchObject({
      KeyId: first.arn,
      EncryptionContext: { purpose: 'dek-wrap', company_id: 'acme' },
    });
  });

  it('wraps an event chain key under its own encryption context, which a DEK unwrap cannot use', async () => {
    const kms = awsKms();
    const key = randomBytes(32);
    const wrapped = await kms.wrap(key, 'v1', 'event-chain');
    expect(fake.requests[0].body).toMatchObject({
      EncryptionContext: { purpose: 'event-chain-wrap', key_version: 'v1' },
    });
    expect((await kms.unwrap(wrapped, 'v1', 'event-chain')).equals(key)).toBe(true);
    await expect(kms.unwrap(wrapped, 'v1')).rejects.toThrow(SecretUnreadable);
  });

  it('seals and opens provider tokens through the envelope vault', async () => {
    const vault = new EnvelopeTokenVault(awsKms(), new InMemoryWrappedDekRepository());
    const sealed = await vault.seal('acme', 'fiken', 'access_token', 'fiken-access-token-91d2');
    await expect(vault.open('acme', 'fiken', 'access_token', sealed)).resolves.toBe('fiken-access-token-91d2');
    await expect(vault.open('acme', 'fiken', 'refresh_token', sealed)).rejects.toThrow(SecretUnreadable);
  });

  it('resolves its current KEK to the key ARN, so DEKs wrapped under it count as current', async () => {
    const kms = awsKms();
    await expect(kms.currentKekId()).resolves.toBe(first.arn);
    const deks = new InMemoryWrappedDekRepository();
    await new EnvelopeTokenVault(kms, deks).ensureCompanyKey('acme');
    await expect(rotateKek(kms, deks)).resolves.toMatchObject({
      kekId: first.arn,
      total: 1,
      rewrapped: 0,
      alreadyCurrent: 1,
    });
  });

  it('moves every DEK to a newly configured key, keeping every token readable', async () => {
    const deks = new InMemoryWrappedDekRepository();
    const before = new EnvelopeTokenVault(awsKms(), deks);
    const sealed = await Promise.all(
      ['acme', 'globex', 'initech'].map((company) =>
        before.seal(company, 'tripletex', 'employee_token', `token-${company}`),
      ),
    );
    const wrappedBefore = await deks.listAfter(null, 10);

    const moved = awsKms({ keyId: second.id });
    await expect(rewrapAll(moved, deks)).resolves.toEqual({
      kekId: second.arn,
      total: 3,
      rewrapped: 3,
      alreadyCurrent: 0,
      skipped: 0,
      failed: [],
    });
    const wrappedAfter = await deks.listAfter(null, 10);
    for (const [index, record] of wrappedAfter.entries()) {
      expect(record.kekId).toBe(second.arn);
      expect(Buffer.from(record.wrapped).equals(Buffer.from(wrappedBefore[index].wrapped))).toBe(false);
    }
    const after = new EnvelopeTokenVault(moved, deks);
    for (const [index, company] of ['acme', 'globex', 'initech'].entries()) {
      await expect(after.open(company, 'tripletex', 'employee_token', sealed[index])).resolves.toBe(`token-${company}`);
    }
  });

  it('retries a transient KMS failure', async () => {
    const kms = awsKms();
    fake.failNext(500);
    await expect(kms.wrap(randomBytes(32), 'acme')).resolves.toMatchObject({ kekId: first.arn });
    expect(fake.requests.filter((request) => request.target === 'TrentService.Encrypt')).toHaveLength(2);
  });

  it('reports a KMS that keeps failing as a KmsError without request details', async () => {
    const kms = awsKms({ maxAttempts: 1 });
    fake.failNext(500);
    const dek = randomBytes(32);
    const failure = (await kms.wrap(dek, 'acme').catch((error: unknown) => error)) as KmsError;
    expect(failure).toBeInstanceOf(KmsError);
    expect(failure.message).toMatch(/AWS KMS Encrypt failed: KMSInternalException/);
    expect(inspect(failure, { depth: Infinity })).not.toContain(dek.toString('base64'));
  });

  it('refuses an unknown key with a KmsError', async () => {
    await expect(awsKms({ keyId: 'alias/missing' }).wrap(randomBytes(32), 'acme')).rejects.toThrow(KmsError);
  });

  it('shows neither credentials nor keys in JSON or inspect', async () => {
    const kms = awsKms();
    const dek = randomBytes(32);
    await kms.unwrap(await kms.wrap(dek, 'acme'), 'acme');
    for (const view of [JSON.stringify(kms), inspect(kms, { depth: Infinity, showHidden: true }), String(kms)]) {
      expect(view).not.toContain(CREDENTIALS.secretAccessKey);
      expect(view).not.toContain(dek.toString('base64'));
      expect(view).not.toContain(dek.toString('hex'));
    }
    expect(JSON.stringify(kms)).toContain(first.alias);
  });
});
