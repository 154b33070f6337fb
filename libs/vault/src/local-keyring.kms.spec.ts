import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { SecretUnreadable } from '@app/domain';
import { describeKmsContract } from '@app/testing';
import { Kms, KmsError, isRotatableKms } from './ports/kms.port';
import { LocalKeyringKms } from './local-keyring.kms';

const posix = process.platform !== 'win32';

describe('LocalKeyringKms under the Kms contract', () => {
  const directories: string[] = [];

  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  describeKmsContract('LocalKeyringKms', () => {
    const directory = mkdtempSync(join(tmpdir(), 'keyring-'));
    directories.push(directory);
    const kms = new LocalKeyringKms(join(directory, 'keyring.json'));
    // The keyring's next version.
    return { kms, anotherKekId: () => kms.rotate() };
  });
});

describe('LocalKeyringKms', () => {
  let directory: string;
  let path: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'keyring-'));
    path = join(directory, 'nested', 'keyring.json');
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const readKeyring = () => JSON.parse(readFileSync(path, 'utf8')) as { current: number; keys: Record<string, string> };

  it('creates a keyring with one 256-bit KEK, readable by its owner only, on first use', async () => {
    const kms = new LocalKeyringKms(path);
    await expect(kms.currentKekId()).resolves.toBe('local:v1');
    const keyring = readKeyring();
    expect(keyring.current).toBe(1);
    expect(Buffer.from(keyring.keys['1'], 'base64')).toHaveLength(32);
    if (posix) expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('keeps an existing keyring instead of replacing it', async () => {
    const kek = randomBytes(32).toString('base64');
    mkdirSync(join(directory, 'nested'));
    writeFileSync(path, JSON.stringify({ current: 7, keys: { '7': kek } }), { mode: 0o600 });
    const kms = new LocalKeyringKms(path);
    await expect(kms.currentKekId()).resolves.toBe('local:v7');
    expect(readKeyring().keys['7']).toBe(kek);
  });

  it('agrees on one keyring when several instances create it at once', async () => {
    const instances = Array.from({ length: 6 }, () => new LocalKeyringKms(path));
    const dek = randomBytes(32);
    const wrapped = await Promise.all(instances.map((kms) => kms.wrap(dek, 'acme')));
    for (const [index, kms] of instances.entries()) {
      expect((await kms.unwrap(wrapped[(index + 1) % wrapped.length], 'acme')).equals(dek)).toBe(true);
    }
  });

  (posix ? it : it.skip)('refuses a keyring that group or others can read or write', async () => {
    const kms = new LocalKeyringKms(path);
    await kms.currentKekId();
    for (const mode of [0o644, 0o640, 0o604, 0o620, 0o660]) {
      chmodSync(path, mode);
      await expect(kms.currentKekId()).rejects.toThrow(/chmod 600/);
    }
    chmodSync(path, 0o600);
    await expect(kms.currentKekId()).resolves.toBe('local:v1');
  });

  it('wraps a DEK so that only the same company can unwrap it', async () => {
    const kms = new LocalKeyringKms(path);
    const dek = randomBytes(32);
    const wrapped = await kms.wrap(dek, 'acme');
    expect(wrapped.kekId).toBe('local:v1');
    expect(wrapped.wrapped).toHaveLength(12 + 32 + 16);
    expect(Buffer.from(wrapped.wrapped).includes(dek)).toBe(false);
    expect((await kms.unwrap(wrapped, 'acme')).equals(dek)).toBe(true);
    await expect(kms.unwrap(wrapped, 'globex')).rejects.toThrow(SecretUnreadable);
  });

  it('rotates to a new current version and still unwraps under the old ones', async () => {
    const kms = new LocalKeyringKms(path);
    const dek = randomBytes(32);
    const underV1 = await kms.wrap(dek, 'acme');
    const before = readKeyring();
    await expect(kms.rotate()).resolves.toBe('local:v2');
    const after = readKeyring();
    expect(after.current).toBe(2);
    expect(after.keys['1']).toBe(before.keys['1']);
    expect(after.keys['2']).not.toBe(after.keys['1']);
    if (posix) expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(directory, 'nested'))).toEqual(['keyring.json']);
    const underV2 = await kms.wrap(dek, 'acme');
    expect(underV2.kekId).toBe('local:v2');
    expect((await kms.unwrap(underV1, 'acme')).equals(dek)).toBe(true);
    expect((await kms.unwrap(underV2, 'acme')).equals(dek)).toBe(true);
  });

  it('sees a rotation made by another process without restarting', async () => {
    const api = new LocalKeyringKms(path);
    const cli = new LocalKeyringKms(path);
    const dek = randomBytes(32);
    await api.wrap(dek, 'acme');
    await cli.rotate();
    const rewrapped = await cli.wrap(dek, 'acme');
    expect((await api.unwrap(rewrapped, 'acme')).equals(dek)).toBe(true);
    await expect(api.currentKekId()).resolves.toBe('local:v2');
  });

  it('is rotatable, unlike a KMS that is not', () => {
    expect(isRotatableKms(new LocalKeyringKms(path))).toBe(true);
    class FixedKms extends Kms {
      wrap = jest.fn();
      unwrap = jest.fn();
      currentKekId = jest.fn();
    }
    expect(isRotatableKms(new FixedKms())).toBe(false);
  });

  it('refuses unknown KEK ids and malformed keyrings with a clear error', async () => {
    const kms = new LocalKeyringKms(path);
    const wrapped = await kms.wrap(randomBytes(32), 'acme');
    await expect(kms.unwrap({ ...wrapped, kekId: 'local:v9' }, 'acme')).rejects.toThrow(KmsError);
    await expect(kms.unwrap({ ...wrapped, kekId: 'arn:aws:kms:eu-north-1:1:key/x' }, 'acme')).rejects.toThrow(KmsError);
    for (const content of [
      'not json',
      '{}',
      JSON.stringify({ current: 2, keys: { '1': randomBytes(32).toString('base64') } }),
      JSON.stringify({ current: 1, keys: { '1': randomBytes(16).toString('base64') } }),
      JSON.stringify({ current: 0, keys: { '0': randomBytes(32).toString('base64') } }),
    ]) {
      writeFileSync(path, content, { mode: 0o600 });
      await expect(kms.currentKekId()).rejects.toThrow(KmsError);
    }
  });

  it('shows only its path in JSON and inspect, never a KEK', async () => {
    const kms = new LocalKeyringKms(path);
    await kms.rotate();
    const keks = Object.values(readKeyring().keys);
    for (const view of [JSON.stringify(kms), inspect(kms, { depth: Infinity, showHidden: true })]) {
      expect(view).toContain('keyring.json');
      for (const kek of keks) {
        expect(view).not.toContain(kek);
        expect(view).not.toContain(Buffer.from(kek, 'base64').toString('hex'));
      }
    }
  });
});
