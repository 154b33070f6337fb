import { randomBytes } from 'node:crypto';
import { SecretUnreadable } from '@app/domain';
import type { Kms } from '@app/vault';

export interface KmsUnderTest {
  readonly kms: Kms;
  /** The id of another key encryption key the adapter can use (a newer keyring version, another key). */
  anotherKekId(): Promise<string>;
}

/**
 * The Kms contract: a key wrapped under the current KEK unwraps to the same bytes, and only for the
 * purpose and subject it was wrapped for, under the KEK that wrapped it, unaltered; anything else
 * is SecretUnreadable. Run against the local keyring and against AWS KMS (its fake endpoint).
 */
export function describeKmsContract(name: string, factory: () => KmsUnderTest | Promise<KmsUnderTest>): void {
  describe(`Kms contract: ${name}`, () => {
    let subject: KmsUnderTest;
    let kms: Kms;

    beforeEach(async () => {
      subject = await factory();
      kms = subject.kms;
    });

    it('wraps a key under the current KEK, without its bytes in the clear, and unwraps it', async () => {
      const key = randomBytes(32);

      const wrapped = await kms.wrap(key, 'acme');

      expect(wrapped.kekId).toBe(await kms.currentKekId());
      expect(Buffer.from(wrapped.wrapped).includes(key)).toBe(false);
      expect((await kms.unwrap(wrapped, 'acme')).equals(key)).toBe(true);
      expect((await kms.unwrap(wrapped, 'acme', 'dek')).equals(key)).toBe(true);
    });

    it("refuses a company's wrapped DEK presented for another company", async () => {
      const wrapped = await kms.wrap(randomBytes(32), 'acme');

      await expect(kms.unwrap(wrapped, 'globex')).rejects.toThrow(SecretUnreadable);
    });

    it('binds the purpose: an event chain key is no DEK of a company of that name, nor the reverse', async () => {
      const key = randomBytes(32);
      const chainKey = await kms.wrap(key, 'v1', 'event-chain');
      const dek = await kms.wrap(key, 'v1');

      expect((await kms.unwrap(chainKey, 'v1', 'event-chain')).equals(key)).toBe(true);
      await expect(kms.unwrap(chainKey, 'v1')).rejects.toThrow(SecretUnreadable);
      await expect(kms.unwrap(chainKey, 'v2', 'event-chain')).rejects.toThrow(SecretUnreadable);
      await expect(kms.unwrap(dek, 'v1', 'event-chain')).rejects.toThrow(SecretUnreadable);
    });

    it('refuses an altered wrapped key', async () => {
      const wrapped = await kms.wrap(randomBytes(32), 'acme');
      const altered = Buffer.from(wrapped.wrapped);
      altered[altered.length - 1] ^= 1;

      await expect(kms.unwrap({ ...wrapped, wrapped: altered }, 'acme')).rejects.toThrow(SecretUnreadable);
    });

    it('refuses a wrapped key attributed to another KEK', async () => {
      const wrapped = await kms.wrap(randomBytes(32), 'acme');
      const other = await subject.anotherKekId();

      expect(other).not.toBe(wrapped.kekId);
      await expect(kms.unwrap({ ...wrapped, kekId: other }, 'acme')).rejects.toThrow(SecretUnreadable);
    });
  });
}
