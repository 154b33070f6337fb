import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { CompanyKeyMissing, SecretUnreadable, TOKEN_PURPOSES, TokenVault } from '@app/domain';
import { EnvelopeTokenVault, SEALED_FORMAT_V1 } from './envelope-token-vault';
import { InMemoryWrappedDekRepository } from '@app/testing';
import { LocalKeyringKms } from './local-keyring.kms';

const TOKEN = 'employee-token-5c1e0a8f-4b7d-4f63-9d2e-1a6f7c3b9e20';

describe('EnvelopeTokenVault', () => {
  let directory: string;
  let kms: LocalKeyringKms;
  let deks: InMemoryWrappedDekRepository;
  let vault: EnvelopeTokenVault;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'vault-'));
    kms = new LocalKeyringKms(join(directory, 'keyring.json'));
    deks = new InMemoryWrappedDekRepository();
    vault = new EnvelopeTokenVault(kms, deks);
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('is the TokenVault port', () => {
    expect(vault).toBeInstanceOf(TokenVault);
  });

  it('opens what it sealed, for every purpose', async () => {
    for (const purpose of TOKEN_PURPOSES) {
      const sealed = await vault.seal('acme', 'tripletex', purpose, `${purpose}:${TOKEN}`);
      await expect(vault.open('acme', 'tripletex', purpose, sealed)).resolves.toBe(`${purpose}:${TOKEN}`);
    }
  });

  it('round-trips empty and non-ASCII tokens', async () => {
    for (const token of ['', 'ø€𝄞\u0000end']) {
      const sealed = await vault.seal('acme', 'fiken', 'refresh_token', token);
      await expect(vault.open('acme', 'fiken', 'refresh_token', sealed)).resolves.toBe(token);
    }
  });

  it('stores format byte, 12-byte IV, ciphertext and 16-byte tag, and never the token itself', async () => {
    const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    expect(sealed.ciphertext[0]).toBe(SEALED_FORMAT_V1);
    expect(sealed.ciphertext).toHaveLength(1 + 12 + Buffer.byteLength(TOKEN) + 16);
    expect(Buffer.from(sealed.ciphertext).includes(Buffer.from(TOKEN))).toBe(false);
  });

  it('seals the same token differently every time', async () => {
    const first = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    const second = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    expect(Buffer.from(first.ciphertext).equals(Buffer.from(second.ciphertext))).toBe(false);
  });

  it('refuses a token opened as another company, provider or purpose', async () => {
    await vault.ensureCompanyKey('globex');
    const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    await expect(vault.open('globex', 'tripletex', 'employee_token', sealed)).rejects.toThrow(SecretUnreadable);
    await expect(vault.open('acme', 'fiken', 'employee_token', sealed)).rejects.toThrow(SecretUnreadable);
    await expect(vault.open('acme', 'tripletex', 'consumer_token', sealed)).rejects.toThrow(SecretUnreadable);
  });

  it('refuses another company’s token even when its wrapped key is copied over', async () => {
    const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    const acmeKey = (await deks.find('acme'))!;
    await deks.insertIfAbsent({ ...acmeKey, companyId: 'globex' });
    await expect(vault.open('globex', 'tripletex', 'employee_token', sealed)).rejects.toThrow(SecretUnreadable);
  });

  it('gives every company its own key', async () => {
    await vault.ensureCompanyKey('acme');
    await vault.ensureCompanyKey('globex');
    const acme = await kms.unwrap((await deks.find('acme'))!, 'acme');
    const globex = await kms.unwrap((await deks.find('globex'))!, 'globex');
    expect(acme).toHaveLength(32);
    expect(acme.equals(globex)).toBe(false);
  });

  it('keeps one key per company when keys are created concurrently', async () => {
    const sealed = await Promise.all(
      Array.from({ length: 8 }, (_, index) => vault.seal('acme', 'fiken', 'access_token', `token-${index}`)),
    );
    for (const [index, secret] of sealed.entries()) {
      await expect(vault.open('acme', 'fiken', 'access_token', secret)).resolves.toBe(`token-${index}`);
    }
  });

  it('refuses a truncated sealed token, whatever is cut off', async () => {
    const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    for (let length = 0; length < sealed.ciphertext.length; length += 1) {
      await expect(
        vault.open('acme', 'tripletex', 'employee_token', { ciphertext: sealed.ciphertext.subarray(0, length) }),
      ).rejects.toThrow(SecretUnreadable);
    }
  });

  it('refuses a sealed token with any single bit flipped', async () => {
    const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    for (let bit = 0; bit < sealed.ciphertext.length * 8; bit += 1) {
      const tampered = Buffer.from(sealed.ciphertext);
      tampered[bit >> 3] ^= 1 << (bit & 7);
      await expect(vault.open('acme', 'tripletex', 'employee_token', { ciphertext: tampered })).rejects.toThrow(
        SecretUnreadable,
      );
    }
  });

  it('refuses a wrapped key with any single bit flipped', async () => {
    const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    const stored = (await deks.find('acme'))!;
    for (let bit = 0; bit < stored.wrapped.length * 8; bit += 17) {
      const tampered = Buffer.from(stored.wrapped);
      tampered[bit >> 3] ^= 1 << (bit & 7);
      const other = new InMemoryWrappedDekRepository();
      await other.insertIfAbsent({ ...stored, wrapped: tampered });
      await expect(
        new EnvelopeTokenVault(kms, other).open('acme', 'tripletex', 'employee_token', sealed),
      ).rejects.toThrow(SecretUnreadable);
    }
  });

  it('makes a company’s tokens unreadable for good when its key is destroyed, and only its tokens', async () => {
    const acme = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    const globex = await vault.seal('globex', 'tripletex', 'employee_token', 'globex-token');
    await vault.destroyCompanyKey('acme');
    await expect(vault.open('acme', 'tripletex', 'employee_token', acme)).rejects.toThrow(CompanyKeyMissing);
    await vault.ensureCompanyKey('acme');
    await expect(vault.open('acme', 'tripletex', 'employee_token', acme)).rejects.toThrow(SecretUnreadable);
    await expect(vault.open('globex', 'tripletex', 'employee_token', globex)).resolves.toBe('globex-token');
  });

  it('refuses to open for a company that never had a key', async () => {
    const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
    await expect(vault.open('initech', 'tripletex', 'employee_token', sealed)).rejects.toThrow(CompanyKeyMissing);
  });

  it('refuses empty company ids, empty providers and unknown purposes', async () => {
    await expect(vault.seal('', 'tripletex', 'employee_token', TOKEN)).rejects.toThrow(RangeError);
    await expect(vault.seal('acme', '', 'employee_token', TOKEN)).rejects.toThrow(RangeError);
    await expect(vault.seal('acme', 'tripletex', 'session_token' as never, TOKEN)).rejects.toThrow(RangeError);
  });

  it('reveals no key material or token through logs, JSON, inspect or errors', async () => {
    const output: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void output.push(inspect(args))),
    );
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output.push(String(chunk));
      return true;
    });
    try {
      const sealed = await vault.seal('acme', 'tripletex', 'employee_token', TOKEN);
      await vault.open('acme', 'tripletex', 'employee_token', sealed);
      const failures = await Promise.allSettled([
        vault.open('acme', 'fiken', 'employee_token', sealed),
        vault.open('nobody', 'fiken', 'employee_token', sealed),
      ]);
      const dek = await kms.unwrap((await deks.find('acme'))!, 'acme');
      const keyring = JSON.parse(readFileSync(join(directory, 'keyring.json'), 'utf8')) as {
        keys: Record<string, string>;
      };
      const kek = Buffer.from(keyring.keys['1'], 'base64');
      const secrets = [
        TOKEN,
        ...[dek, kek].flatMap((key) => [key.toString('hex'), key.toString('base64'), key.toString('base64url')]),
      ];
      const views = [
        ...output,
        JSON.stringify({ vault, kms, deks }),
        inspect(vault, { depth: Infinity, showHidden: true }),
        inspect(kms, { depth: Infinity, showHidden: true }),
        String(vault),
        ...failures.flatMap((failure) =>
          failure.status === 'rejected' ? [inspect(failure.reason), JSON.stringify(failure.reason)] : [],
        ),
      ];
      expect(failures.every((failure) => failure.status === 'rejected')).toBe(true);
      for (const view of views) for (const secret of secrets) expect(view).not.toContain(secret);
    } finally {
      for (const spy of spies) spy.mockRestore();
      write.mockRestore();
    }
  });
});
