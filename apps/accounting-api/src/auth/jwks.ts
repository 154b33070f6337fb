import { createPublicKey, type KeyObject } from 'node:crypto';
import type { RotatingKey } from './key-rotation';

/** RSA keys shorter than this are refused (NIST SP 800-131A). */
const MIN_MODULUS_BITS = 2048;

/** A gateway verification key from the JWKS document. */
export interface GatewayKey extends RotatingKey {
  key: KeyObject;
}

interface JwkWithActivation {
  kty: string;
  kid?: string;
  n?: string;
  e?: string;
  alg?: string;
  use?: string;
  activatedAt?: string;
  [member: string]: unknown;
}

/**
 * Parses a JWKS document into verification keys. A key that is not a usable RS256 public key
 * (wrong type, no kid, private members, a bad activatedAt) is skipped and reported, so one bad
 * entry never disables the others.
 */
export function parseJwks(document: unknown): { keys: GatewayKey[]; problems: string[] } {
  const problems: string[] = [];
  const keys: GatewayKey[] = [];
  const entries = (document as { keys?: unknown })?.keys;
  if (!Array.isArray(entries)) return { keys, problems: ['the JWKS has no "keys" array'] };
  for (const [index, entry] of entries.entries()) {
    const jwk = entry as JwkWithActivation;
    const label = typeof jwk?.kid === 'string' ? `key ${jwk.kid}` : `key #${index}`;
    if (jwk?.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.e !== 'string') {
      problems.push(`${label}: not an RSA public key`);
      continue;
    }
    if (typeof jwk.kid !== 'string' || jwk.kid.length === 0) {
      problems.push(`${label}: has no kid`);
      continue;
    }
    if (jwk.alg !== undefined && jwk.alg !== 'RS256') {
      problems.push(`${label}: alg ${String(jwk.alg)} is not RS256`);
      continue;
    }
    if ('d' in jwk) {
      problems.push(`${label}: contains private key material; refusing it`);
      continue;
    }
    const activatedAt = jwk.activatedAt === undefined ? new Date(0) : new Date(jwk.activatedAt);
    if (Number.isNaN(activatedAt.getTime())) {
      problems.push(`${label}: activatedAt is not an RFC 3339 instant`);
      continue;
    }
    try {
      const key = createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e }, format: 'jwk' });
      const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
      if (bits < MIN_MODULUS_BITS) {
        problems.push(`${label}: a ${bits}-bit modulus is too weak (at least ${MIN_MODULUS_BITS})`);
        continue;
      }
      keys.push({ kid: jwk.kid, activatedAt, key });
    } catch {
      problems.push(`${label}: the modulus or exponent does not decode`);
    }
  }
  return { keys, problems };
}
