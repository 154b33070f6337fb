import type { ProviderKind } from '@app/domain';

/**
 * Where the providers send the admin's browser back to. Where the providers themselves are (real
 * or sandbox) is each provider's settings (libs/providers), reached through `ProviderCatalog`.
 */
export class ProviderEndpoints {
  constructor(
    /** The service's public origin, e.g. `https://accounting.example.no`. */
    readonly publicUrl: string,
  ) {}

  /** The OAuth redirect URI registered with the provider. */
  callbackUrl(provider: ProviderKind): string {
    return `${this.publicUrl}/v1/oauth/${provider}/callback`;
  }

  /** The service's own page where an admin pastes a `token` provider's token (Tripletex's employee token). */
  tokenFormUrl(provider: ProviderKind): string {
    return `${this.publicUrl}/v1/oauth/${provider}/token-form`;
  }
}
