import type {
  AccountingProvider,
  Clock,
  GrantProof,
  OnboardingKind,
  ProviderConnection,
  ProviderConnectionRecord,
  ProviderKind,
  ProviderTokenStore,
  RedeemedGrant,
} from '@app/domain';
import type { ProviderConfig } from './provider-config';
import type { SharedRequestSlots } from './ports/shared-request-slots.port';

/** What a provider's parts are built with at boot, besides its own settings. */
export interface ProviderDependencies {
  readonly clock: Clock;
  /** Where an `oauth` provider reads and rotates a company's tokens. */
  readonly tokenStore: ProviderTokenStore;
  /** A provider's request slot shared by every instance (the database's); absent: each process its own. */
  readonly requestSlots?: SharedRequestSlots;
}

/** A provider's half of onboarding: redeem what its consent step returned. */
export interface GrantRedeemer {
  redeem(proof: GrantProof): Promise<RedeemedGrant>;
}

/** A provider built with its settings: what the registry routes to. */
export interface ProviderParts {
  readonly adapter: AccountingProvider;
  readonly grantExchange: GrantRedeemer;
  /** The consent screen's URL for this request (see `ProviderCatalog.authorizeUrl`). */
  authorizeUrl(request: { state: string; redirectUri: string; tokenFormUrl: string }): string;
  /** The connection the adapter calls with, for a stored record of this provider. */
  connectionOf(record: ProviderConnectionRecord, storedToken: () => Promise<string>): ProviderConnection;
}

/**
 * Everything the service knows about one accounting provider, exported by the provider's own
 * folder and listed once in `providers.ts`. `Settings` is what the provider needs from the
 * deployment (its API root, the application's credentials there, timeouts); the app builds them
 * from its configuration, or from the in-process sandbox in sandbox mode.
 */
export interface ProviderDefinition<Settings = never> {
  /** The path segment and stored value: `tripletex`. */
  readonly kind: ProviderKind;
  /** As people read it: `Tripletex`. */
  readonly displayName: string;
  readonly onboarding: OnboardingKind;
  /**
   * A `token` provider's form (the service's page, for a provider without a consent screen of its
   * own): what the admin is asked to paste and where to get it. Unused for `oauth`.
   */
  readonly tokenForm?: { readonly label: string; readonly instructions: string };
  /** Its environment variables and how its settings are built from them. */
  readonly config: ProviderConfig<Settings>;
  /**
   * How many of its companies the daily check runs at once unless `DAILY_CHECK_CONCURRENCY_<KIND>`
   * says otherwise; unsaid, 16. A provider that answers slowly per company but takes many at once
   * wants more; one with large pages fewer, to keep memory flat.
   */
  readonly dailyCheckConcurrency?: number;
  create(settings: Settings, dependencies: ProviderDependencies): ProviderParts;
}
