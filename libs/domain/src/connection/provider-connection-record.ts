import type { OAuthTokens } from '../ports/provider-token-store.port';
import type { ProviderKind } from '../provider/provider-connection';

/** Whether the stored credentials still work: a refused refresh token needs the admin to connect again. */
export const CONNECTION_STATUSES = ['connected', 'needs_reauthorization'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/**
 * A company's connection to its accounting provider as stored (spec §2.5, the "company record"),
 * without any secret: the sealed tokens never leave the persistence adapter except decrypted, at
 * call time, through `ProviderConnectionRepository.employeeToken` or the `ProviderTokenStore`.
 * A company books into one provider at a time: connecting another one replaces the connection.
 */
export interface ProviderConnectionRecord {
  readonly companyId: string;
  readonly provider: ProviderKind;
  readonly status: ConnectionStatus;
  /** The company at the provider: Fiken's company slug, Tripletex's company id. */
  readonly externalCompanyId: string | null;
  readonly externalCompanyName: string | null;
  /** Fiken: when the stored access token stops working. Null for Tripletex (sessions are not stored). */
  readonly accessTokenExpiresAt: Date | null;
  /** Why the connection needs re-authorisation, when it does. */
  readonly reauthorizationReason: string | null;
  /** The admin who connected it (the token's `sub`). */
  readonly connectedBy: string;
  readonly connectedAt: Date;
  readonly updatedAt: Date;
}

/** The secret a fresh connection stores: Tripletex's employee token or Fiken's OAuth tokens. */
export type ProviderGrant =
  | { readonly provider: 'tripletex'; readonly employeeToken: string }
  | { readonly provider: 'fiken'; readonly tokens: OAuthTokens };

/** What onboarding stores for a company: the grant, which company at the provider it opens, who connected it. */
export interface NewProviderConnection {
  readonly companyId: string;
  readonly grant: ProviderGrant;
  readonly externalCompanyId: string | null;
  readonly externalCompanyName: string | null;
  readonly connectedBy: string;
}
