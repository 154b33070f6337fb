import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import {
  CompanyKeyMissing,
  SealedSecret,
  SecretUnreadable,
  TokenPurpose,
  TokenVault,
  isTokenPurpose,
} from '@app/domain';
import { KEY_BYTES, decrypt, encrypt, packBox, unpackBox } from './aes-gcm';
import { tokenAdditionalData } from './additional-data';
import { Kms } from './ports/kms.port';
import { WrappedDekRecord, WrappedDekRepository } from './ports/wrapped-dek-repository.port';

/** First byte of every sealed token: the layout `0x01 ‖ IV ‖ ciphertext ‖ tag`. */
export const SEALED_FORMAT_V1 = 0x01;

/**
 * Envelope encryption of provider tokens: a random 256-bit DEK per company, wrapped by the KMS and
 * stored wrapped; tokens sealed with AES-256-GCM under the DEK with additional data binding
 * company, provider and purpose. The DEK is unwrapped for each call and wiped right after; it is
 * never cached, logged or returned.
 */
export class EnvelopeTokenVault extends TokenVault {
  constructor(
    private readonly kms: Kms,
    private readonly deks: WrappedDekRepository,
  ) {
    super();
  }

  async ensureCompanyKey(companyId: string): Promise<void> {
    await this.companyKey(companyId);
  }

  async seal(companyId: string, provider: string, purpose: TokenPurpose, plaintext: string): Promise<SealedSecret> {
    const aad = additionalData(companyId, provider, purpose);
    const record = await this.companyKey(companyId);
    const message = Buffer.from(plaintext, 'utf8');
    const dek = await this.kms.unwrap(record, companyId);
    try {
      const box = encrypt(dek, message, aad);
      return { ciphertext: Buffer.concat([Buffer.of(SEALED_FORMAT_V1), packBox(box)]) };
    } finally {
      dek.fill(0);
      message.fill(0);
    }
  }

  async open(companyId: string, provider: string, purpose: TokenPurpose, sealed: SealedSecret): Promise<string> {
    const aad = additionalData(companyId, provider, purpose);
    const bytes = sealed.ciphertext;
    if (bytes.length === 0 || bytes[0] !== SEALED_FORMAT_V1) throw new SecretUnreadable('unknown format');
    const box = unpackBox(bytes.subarray(1));
    const record = await this.deks.find(companyId);
    if (!record) throw new CompanyKeyMissing(companyId);
    const dek = await this.kms.unwrap(record, companyId);
    try {
      const message = decrypt(dek, box, aad);
      try {
        return message.toString('utf8');
      } finally {
        message.fill(0);
      }
    } finally {
      dek.fill(0);
    }
  }

  async destroyCompanyKey(companyId: string): Promise<void> {
    await this.deks.delete(companyId);
  }

  toJSON(): Record<string, string> {
    return { type: 'EnvelopeTokenVault' };
  }

  [inspect.custom](): string {
    return 'EnvelopeTokenVault {}';
  }

  private async companyKey(companyId: string): Promise<WrappedDekRecord> {
    requireNonEmpty('companyId', companyId);
    const existing = await this.deks.find(companyId);
    if (existing) return existing;
    const dek = randomBytes(KEY_BYTES);
    try {
      const wrapped = await this.kms.wrap(dek, companyId);
      return await this.deks.insertIfAbsent({ companyId, wrapped: wrapped.wrapped, kekId: wrapped.kekId });
    } finally {
      dek.fill(0);
    }
  }
}

function additionalData(companyId: string, provider: string, purpose: string): Buffer {
  requireNonEmpty('companyId', companyId);
  requireNonEmpty('provider', provider);
  if (!isTokenPurpose(purpose)) throw new RangeError(`unknown token purpose: ${purpose}`);
  return tokenAdditionalData(companyId, provider, purpose);
}

function requireNonEmpty(name: string, value: string): void {
  if (typeof value !== 'string' || value.length === 0) throw new RangeError(`${name} must be a non-empty string`);
}
