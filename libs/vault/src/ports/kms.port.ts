/** A data encryption key as wrapped (encrypted) by a key encryption key; safe to store. */
export interface WrappedDek {
  /** The wrapped key bytes; stored in a `bytea` column. */
  readonly wrapped: Uint8Array;
  /**
   * Which key encryption key wrapped it: `local:v<n>` for the local keyring, the key ARN for AWS
   * KMS. Needed to unwrap, and tells `rewrapAll` which keys still sit under an old KEK.
   */
  readonly kekId: string;
}

/**
 * What a wrapped key is for. `dek`: a company's data encryption key, the subject being the company
 * id. `event-chain`: a version of the key that keys the event store's hash chain, the subject being
 * `v<version>`. A key wrapped for one purpose or subject cannot be unwrapped as another.
 */
export type WrapPurpose = 'dek' | 'event-chain';

/**
 * Key encryption keys. Wrapping is bound to its purpose and subject (the company, for a DEK), so a
 * wrapped DEK copied to another company's row cannot be unwrapped there. Key material never leaves
 * an adapter except as the unwrapped key returned to the caller, who wipes it after use.
 */
export abstract class Kms {
  /** Wraps a key under the current key encryption key, bound to `purpose` and `subject`. */
  abstract wrap(key: Uint8Array, subject: string, purpose?: WrapPurpose): Promise<WrappedDek>;

  /** Unwraps a key wrapped for this purpose and subject; throws if it was wrapped for another one or altered. */
  abstract unwrap(wrapped: WrappedDek, subject: string, purpose?: WrapPurpose): Promise<Buffer>;

  /** The KEK that `wrap` uses now; DEKs wrapped under another one are re-wrapped by `rewrapAll`. */
  abstract currentKekId(): Promise<string>;
}

/** A KMS whose key encryption keys this service manages itself and can rotate (the local keyring). */
export interface RotatableKms {
  /** Adds a new KEK version and makes it current; older versions stay available for unwrapping. */
  rotate(): Promise<string>;
}

export function isRotatableKms(kms: Kms): kms is Kms & RotatableKms {
  return typeof (kms as Partial<RotatableKms>).rotate === 'function';
}

/** A KMS failure that is not about a particular secret: missing or malformed keyring, unknown KEK. */
export class KmsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KmsError';
  }
}
