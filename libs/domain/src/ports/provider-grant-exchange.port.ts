import type { ProviderSecret } from '../connection/provider-connection-record';
import type { ProviderKind } from '../provider/provider-connection';

/** A company the grant opens at the provider (Fiken: `GET /companies`). */
export interface GrantedCompany {
  /** Fiken's company slug, Tripletex's company id. */
  readonly id: string;
  readonly name: string | null;
}

/**
 * What came back from the consent step: the provider's authorization code (`oauth` providers) or
 * the token the admin pasted (`token` providers), with the redirect URI and signed state of the
 * request it answers (an OAuth token endpoint checks both).
 */
export interface GrantProof {
  readonly code: string;
  readonly redirectUri: string;
  readonly state: string;
}

/** What a proof was redeemed for: the secret to store and the companies it opens. */
export interface RedeemedGrant {
  readonly secret: ProviderSecret;
  /** The companies the secret gives access to; the first is the one connected. */
  readonly companies: readonly GrantedCompany[];
}

/**
 * The provider side of onboarding: turn what the consent step returned into working credentials
 * and learn which company they open. Failures are `ProviderError`s; a code or token the provider
 * refuses is reason `rejected`, a provider kind nobody registered too.
 */
export abstract class ProviderGrantExchange {
  abstract redeem(provider: ProviderKind, proof: GrantProof): Promise<RedeemedGrant>;
}
