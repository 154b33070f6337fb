import type { KeyObject } from 'node:crypto';

/** A token whose RS256 signature verified, with the key that verified it and its payload. */
export interface VerifiedToken {
  /** The `kid` the token names (undefined: it named none and the current key verified it). */
  readonly kid: string | undefined;
  /** The key object the gateway key store handed out for that kid. */
  readonly key: KeyObject;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** How many verified tokens are remembered at most (a gateway reuses one token per user for a while). */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * Tokens whose signature has been verified, by their exact text, so that the gateway's next
 * request with the same token skips the RS256 verification (about a tenth of a submission's CPU).
 * It remembers only the signature's verdict: the caller still asks the key store for the token's
 * key on every request and uses the entry only if it gets the very same key object back — a key
 * rotated out or removed from the JWKS (the store then refuses the kid, or hands out new key objects
 * after re-reading the document) sends the token through the full verification again — and the
 * claims (expiry against the clock, issuer, …) are checked again every time. Bounded: when full, the
 * oldest entry goes.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedToken>();

  constructor(private readonly capacity = VERIFIED_TOKEN_CACHE_SIZE) {}

  get(token: string): VerifiedToken | undefined {
    return this.entries.get(token);
  }

  remember(token: string, verified: VerifiedToken): void {
    if (this.entries.has(token)) return;
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, verified);
  }

  forget(token: string): void {
    this.entries.delete(token);
  }

  get size(): number {
    return this.entries.size;
  }
}
