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

/**
 * The company's secret at a provider, by the provider's onboarding kind: one long-lived token the
 * admin pastes (`token`: Tripletex's employee token) or OAuth tokens that rotate (`oauth`: Fiken's,
 * read and rotated afterwards through `ProviderTokenStore`).
 */
export type ProviderSecret =
  { readonly kind: 'token'; readonly token: string } | { readonly kind: 'oauth'; readonly tokens: OAuthTokens };

/** What a fresh connection stores: the provider and its secret. */
export interface ProviderGrant {
  readonly provider: ProviderKind;
  readonly secret: ProviderSecret;
}

/** What onboarding stores for a company: the grant, which company at the provider it opens, who connected it. */
export interface NewProviderConnection {
  readonly companyId: string;
  readonly grant: ProviderGrant;
  readonly externalCompanyId: string | null;
  readonly externalCompanyName: string | null;
  readonly connectedBy: string;
}
