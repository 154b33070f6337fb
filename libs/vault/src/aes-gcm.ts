import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretUnreadable } from '@app/domain';

/** The only parameters the vault speaks: AES-256-GCM, 96-bit IV, 128-bit tag. */
export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

const ALGORITHM = 'aes-256-gcm';

/** The three parts of one AES-GCM encryption. None of them is secret. */
export interface GcmBox {
  readonly iv: Uint8Array;
  readonly ciphertext: Uint8Array;
  readonly tag: Uint8Array;
}

/** Encrypts under a 256-bit key with a fresh random 96-bit IV; `aad` is authenticated, not encrypted. */
export function encrypt(key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): GcmBox {
  return encryptWithIv(key, randomBytes(IV_BYTES), plaintext, aad);
}

/**
 * Encryption with a caller-chosen IV, for known-answer tests only: reusing an IV under one key
 * breaks GCM, so production code goes through `encrypt`. Deliberately not exported by the index.
 */
export function encryptWithIv(key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): GcmBox {
  requireLength('key', key, KEY_BYTES);
  requireLength('IV', iv, IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv: Buffer.from(iv), ciphertext, tag: cipher.getAuthTag() };
}

/**
 * Authenticates and decrypts. Refuses, with `SecretUnreadable`, any key that is not exactly 32
 * bytes, any IV that is not exactly 12 bytes, any tag that is not exactly 16 bytes, and any box
 * whose tag does not verify over IV, ciphertext and `aad`. Never returns unauthenticated bytes.
 */
export function decrypt(key: Uint8Array, box: GcmBox, aad: Uint8Array): Buffer {
  if (key.length !== KEY_BYTES) throw new SecretUnreadable(`key must be ${KEY_BYTES} bytes`);
  if (box.iv.length !== IV_BYTES) throw new SecretUnreadable(`IV must be ${IV_BYTES} bytes`);
  if (box.tag.length !== TAG_BYTES) throw new SecretUnreadable(`tag must be ${TAG_BYTES} bytes`);
  const decipher = createDecipheriv(ALGORITHM, key, box.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(box.tag);
  const head = decipher.update(box.ciphertext);
  try {
    const tail = decipher.final();
    return Buffer.concat([head, tail]);
  } catch {
    throw new SecretUnreadable('authentication failed');
  } finally {
    head.fill(0);
  }
}

/** `IV ‖ ciphertext ‖ tag` as one byte string. */
export function packBox(box: GcmBox): Buffer {
  return Buffer.concat([box.iv, box.ciphertext, box.tag]);
}

/** Splits `IV ‖ ciphertext ‖ tag`; anything shorter than IV plus tag is refused. */
export function unpackBox(bytes: Uint8Array): GcmBox {
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretUnreadable('too short to hold an IV and a tag');
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    iv: view.subarray(0, IV_BYTES),
    ciphertext: view.subarray(IV_BYTES, view.length - TAG_BYTES),
    tag: view.subarray(view.length - TAG_BYTES),
  };
}

function requireLength(what: string, bytes: Uint8Array, length: number): void {
  if (bytes.length !== length) throw new RangeError(`${what} must be ${length} bytes, got ${bytes.length}`);
}
