import { createHmac, timingSafeEqual } from 'node:crypto';
import { isProviderKind, type ProviderKind } from '@app/domain';

/** What a signed OAuth `state` says: which pending request, for whom, until when. */
export interface StateClaims {
  readonly nonce: string;
  readonly companyId: string;
  readonly provider: ProviderKind;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  /**
   * The SHA-256 (hex) of the secret in the browser-binding cookie of the browser that started the
   * connection. Every state the service signs now carries one; a state without it is refused
   * by the callback.
   */
  readonly binding?: string;
}

/**
 * The OAuth `state` parameter: `base64url(JSON claims) "." base64url(HMAC-SHA256)`. It carries no
 * secret (the admin's identity stays in the stored request), and anything altered fails the MAC.
 */
export class AuthorizationStateSigner {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('the state signing key must be at least 32 bytes');
  }

  sign(claims: StateClaims): string {
    const payload = Buffer.from(
      JSON.stringify({
        n: claims.nonce,
        c: claims.companyId,
        p: claims.provider,
        e: claims.expiresAt,
        ...(claims.binding === undefined ? {} : { b: claims.binding }),
      }),
    ).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The claims of a state this service signed, or null for anything else. */
  verify(state: string): StateClaims | null {
    if (state.length > 1024) return null;
    const [payload, mac, ...rest] = state.split('.');
    if (!payload || !mac || rest.length > 0) return null;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (
        typeof raw.n !== 'string' ||
        typeof raw.c !== 'string' ||
        typeof raw.p !== 'string' ||
        typeof raw.e !== 'number'
      )
        return null;
      if (!isProviderKind(raw.p)) return null;
      if (raw.b !== undefined && typeof raw.b !== 'string') return null;
      return {
        nonce: raw.n,
        companyId: raw.c,
        provider: raw.p,
        expiresAt: raw.e,
        ...(raw.b === undefined ? {} : { binding: raw.b }),
      };
    } catch {
      return null;
    }
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(`oauth-state:v1:${payload}`).digest('base64url');
  }
}
