import { DomainError } from '../errors/domain-error';

/** What a sealed provider credential is for; part of the additional data it is sealed under. */
export const TOKEN_PURPOSES = ['consumer_token', 'employee_token', 'access_token', 'refresh_token'] as const;

export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

export function isTokenPurpose(value: string): value is TokenPurpose {
  return (TOKEN_PURPOSES as readonly string[]).includes(value);
}

/**
 * A provider token sealed under its company's data encryption key, ready to be stored as-is in a
 * binary (`bytea`) column. `ciphertext` is one self-describing blob:
 * `format (1 byte, 0x01) ‖ IV (12 bytes) ‖ AES-256-GCM ciphertext ‖ tag (16 bytes)`.
 * It is only readable by `TokenVault.open` with the same company, provider and purpose.
 */
export interface SealedSecret {
  readonly ciphertext: Uint8Array;
}

/**
 * Storage encryption of provider tokens (spec §5 "Token storage"): one data encryption key per
 * company, wrapped by a key encryption key; tokens are decrypted in memory only at call time.
 */
export abstract class TokenVault {
  /** Creates the company's data encryption key if it has none; idempotent and safe under races. */
  abstract ensureCompanyKey(companyId: string): Promise<void>;

  /** Encrypts a token under the company's key (created on first use), bound to provider and purpose. */
  abstract seal(companyId: string, provider: string, purpose: TokenPurpose, plaintext: string): Promise<SealedSecret>;

  /**
   * Decrypts a token sealed by `seal` for exactly this company, provider and purpose.
   * Throws `CompanyKeyMissing` when the company has no key, `SecretUnreadable` on any other failure.
   */
  abstract open(companyId: string, provider: string, purpose: TokenPurpose, sealed: SealedSecret): Promise<string>;

  /** Destroys the company's key: every token sealed for it becomes unreadable for good. */
  abstract destroyCompanyKey(companyId: string): Promise<void>;
}

/** A sealed secret that cannot be opened: tampered, truncated, swapped or not sealed for this context. */
export class SecretUnreadable extends DomainError {
  constructor(reason: string) {
    super('internal_error', `sealed secret cannot be opened: ${reason}`);
  }
}

/** The company has no data encryption key (never created, or destroyed with the company). */
export class CompanyKeyMissing extends DomainError {
  constructor(companyId: string) {
    super('internal_error', `company ${companyId} has no data encryption key`);
  }
}
