import type { OAuthTokens } from './provider-token-store.port';

/** A company the grant opens at the provider (Fiken: `GET /companies`). */
export interface GrantedCompany {
  /** Fiken's company slug, Tripletex's company id. */
  readonly id: string;
  readonly name: string | null;
}

/** What an authorization code was exchanged for. */
export interface RedeemedGrant {
  readonly tokens: OAuthTokens;
  /** The companies the tokens give access to; the first is the one connected. */
  readonly companies: readonly GrantedCompany[];
}

/**
 * The provider side of onboarding: turn what the consent step returned into working credentials
 * and learn which company they open. Failures are `ProviderError`s; a code or token the provider
 * refuses is reason `rejected`.
 */
export abstract class ProviderGrantExchange {
  /**
   * Fiken: exchanges the authorization code at the token endpoint (with the `state` the authorize
   * request carried, which Fiken's definition lists as required there too), then lists the
   * companies it opens.
   */
  abstract redeemFikenCode(code: string, redirectUri: string, state: string): Promise<RedeemedGrant>;

  /** Tripletex: creates a session with the employee token (proving it works) and asks whose it is. */
  abstract verifyTripletexEmployeeToken(employeeToken: string): Promise<GrantedCompany>;
}
