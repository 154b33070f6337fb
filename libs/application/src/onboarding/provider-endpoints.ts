import type { ProviderKind } from '@app/domain';

export interface TripletexEndpoints {
  /** API root, e.g. `https://tripletex.no/v2` or the sandbox's. */
  readonly apiUrl: string;
  /**
   * Where the admin gets an employee token: the sandbox's consent page. Null for the real
   * Tripletex, which has no consent screen: the service's own page asks the admin to paste one.
   */
  readonly consentUrl: string | null;
}

export interface FikenEndpoints {
  /** API root, e.g. `https://api.fiken.no/api/v2`. */
  readonly apiUrl: string;
  /** e.g. `https://fiken.no/oauth/authorize`. */
  readonly authorizeUrl: string;
  /** e.g. `https://fiken.no/oauth/token`. */
  readonly tokenUrl: string;
  readonly clientId: string;
}

/** Where the providers are (real or sandbox) and where they send the admin's browser back to. */
export class ProviderEndpoints {
  constructor(
    readonly tripletex: TripletexEndpoints,
    readonly fiken: FikenEndpoints,
    /** The service's public origin, e.g. `https://accounting.example.no`. */
    readonly publicUrl: string,
  ) {}

  /** The OAuth redirect URI registered with the provider. */
  callbackUrl(provider: ProviderKind): string {
    return `${this.publicUrl}/v1/oauth/${provider}/callback`;
  }

  /** The service's own page where an admin pastes a Tripletex employee token. */
  tripletexTokenFormUrl(): string {
    return `${this.publicUrl}/v1/oauth/tripletex/token-form`;
  }
}
