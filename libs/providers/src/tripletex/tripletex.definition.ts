import { providerEnvValues as values } from '../provider-config';
import type { ProviderDefinition } from '../provider-definition';
import type { TripletexConfig } from './tripletex.config';
import type { TripletexConnection } from './tripletex-connection';
import { TripletexGrantExchange } from './tripletex-grant-exchange';
import { TripletexProvider } from './tripletex.provider';

export interface TripletexSettings {
  /** API root, e.g. `https://tripletex.no/v2` or the sandbox's. */
  readonly apiUrl: string;
  /**
   * Where the admin gets an employee token: the sandbox's consent page. Null for the real
   * Tripletex, which has no consent screen: the service's own page asks the admin to paste one.
   */
  readonly consentUrl: string | null;
  /** The adapter's configuration (the application's consumer token among it). */
  readonly config: TripletexConfig;
  /** How long an onboarding call may take, ms. */
  readonly timeoutMs: number;
}

/** Tripletex: the admin pastes an employee token; the adapter books vouchers. */
export const tripletex: ProviderDefinition<TripletexSettings> = {
  kind: 'tripletex',
  displayName: 'Tripletex',
  onboarding: 'token',
  // Tripletex answers fast but with large pages: a few companies at once keep memory flat.
  dailyCheckConcurrency: 16,
  tokenForm: {
    label: 'Employee token',
    instructions:
      'Create an employee token for this integration in Tripletex (Settings → API access) and paste it here.',
  },
  config: {
    variables: {
      /** The application's consumer token (secret). */
      TRIPLETEX_CONSUMER_TOKEN: values.text(),
      TRIPLETEX_BASE_URL: values.httpUrl(),
      /** A page that hands out employee tokens and redirects back (the sandbox's); unset: the service's token form. */
      TRIPLETEX_CONSENT_URL: values.httpUrl(),
    },
    credentialsHint: 'TRIPLETEX_CONSUMER_TOKEN',
    hasCredentials: (env) => env.TRIPLETEX_CONSUMER_TOKEN !== undefined,
    settings(env, shared) {
      const consumerToken = env.TRIPLETEX_CONSUMER_TOKEN as string | undefined;
      if (!consumerToken) return { missing: 'TRIPLETEX_CONSUMER_TOKEN' };
      return {
        apiUrl: (env.TRIPLETEX_BASE_URL as string | undefined) ?? 'https://tripletex.no/v2',
        consentUrl: (env.TRIPLETEX_CONSENT_URL as string | undefined) ?? null,
        config: { consumerToken, resilience: { timeoutMs: shared.timeoutMs, retries: shared.retries } },
        timeoutMs: shared.timeoutMs,
      };
    },
  },
  create(settings, { clock }) {
    return {
      adapter: new TripletexProvider(settings.config, clock),
      grantExchange: new TripletexGrantExchange(
        { apiUrl: settings.apiUrl, consumerToken: settings.config.consumerToken, timeoutMs: settings.timeoutMs },
        clock,
      ),
      authorizeUrl({ state, redirectUri, tokenFormUrl }) {
        const url = new URL(settings.consentUrl ?? tokenFormUrl);
        url.searchParams.set('redirect_uri', redirectUri);
        url.searchParams.set('state', state);
        return url.toString();
      },
      connectionOf(record, storedToken): TripletexConnection {
        return {
          provider: 'tripletex',
          companyId: record.companyId,
          baseUrl: settings.apiUrl,
          // A reconnect stores new credentials with a new connectedAt.
          credentials: { version: record.connectedAt.toISOString(), employeeToken: storedToken },
        };
      },
    };
  },
};
