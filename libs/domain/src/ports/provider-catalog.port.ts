import type { ProviderConnectionRecord } from '../connection/provider-connection-record';
import type { ProviderConnection, ProviderKind } from '../provider/provider-connection';

/** How an admin proves access at a provider: OAuth consent, or pasting a long-lived token. */
export type OnboardingKind = 'oauth' | 'token';

/**
 * The registered accounting providers, as the use cases need them (the registry in libs/providers
 * is the adapter): which kinds exist, where onboarding sends the admin, and how a stored connection
 * becomes the `ProviderConnection` its adapter calls with.
 */
export abstract class ProviderCatalog {
  /** The registered kinds, in registration order. */
  abstract kinds(): readonly ProviderKind[];

  abstract isRegistered(kind: string): boolean;

  /** The provider's name as people read it (`Tripletex`). */
  abstract displayName(kind: ProviderKind): string;

  abstract onboarding(kind: ProviderKind): OnboardingKind;

  /**
   * Where to send the admin's browser to grant access: the provider's consent screen, or (a
   * `token` provider without one) `tokenFormUrl`, the service's own page asking for the token.
   */
  abstract authorizeUrl(
    kind: ProviderKind,
    request: { state: string; redirectUri: string; tokenFormUrl: string },
  ): string;

  /**
   * The connection the adapter calls with, for a stored record. `storedToken` reads the company's
   * `token` secret from the vault when (and only when) the adapter needs it.
   */
  abstract connectionOf(record: ProviderConnectionRecord, storedToken: () => Promise<string>): ProviderConnection;
}
