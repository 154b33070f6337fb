/** The accounting providers the service speaks to (docs/api.md: `tripletex`, `fiken`). */
export const PROVIDER_KINDS = ['tripletex', 'fiken'] as const;

export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export function isProviderKind(value: string): value is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(value);
}

/**
 * A company's connection to Tripletex. The employee token is the company's secret: it is read
 * (decrypted from the vault) only when a session has to be created, and never kept beyond that.
 * The consumer token is the application's own and lives in the adapter's configuration.
 */
export interface TripletexConnection {
  readonly provider: 'tripletex';
  readonly companyId: string;
  /** e.g. `https://tripletex.no/v2`, `https://api-test.tripletex.tech/v2` or a sandbox URL. */
  readonly baseUrl: string;
  readonly credentials: {
    /**
     * Which stored credentials these are: a new connection of the company (a reconnect, perhaps to
     * another Tripletex company or employee) has a new version, so that nothing made from the old
     * ones — a cached session — is used for it.
     */
    readonly version: string;
    employeeToken(): Promise<string>;
  };
}

/**
 * A company's connection to Fiken. Its OAuth tokens are read and rotated through the
 * `ProviderTokenStore` port (keyed by `companyId`), never carried here.
 */
export interface FikenConnection {
  readonly provider: 'fiken';
  readonly companyId: string;
  /** e.g. `https://api.fiken.no/api/v2` or a sandbox URL. */
  readonly baseUrl: string;
  /** e.g. `https://fiken.no/oauth/token`. */
  readonly tokenUrl: string;
  /** The company's slug at Fiken: every API path lives under `/companies/{companySlug}`. */
  readonly companySlug: string;
}

/** Everything an adapter needs to call the provider on one company's behalf. */
export type ProviderConnection = TripletexConnection | FikenConnection;
