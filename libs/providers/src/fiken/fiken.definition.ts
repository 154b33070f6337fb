import { providerEnvValues as values } from '../provider-config';
import type { ProviderDefinition } from '../provider-definition';
import type { FikenConfig } from './fiken.config';
import type { FikenConnection } from './fiken-connection';
import { FikenGrantExchange } from './fiken-grant-exchange';
import { FikenProvider } from './fiken.provider';

export interface FikenSettings {
  /** API root, e.g. `https://api.fiken.no/api/v2`. */
  readonly apiUrl: string;
  /** e.g. `https://fiken.no/oauth/authorize`. */
  readonly authorizeUrl: string;
  /** e.g. `https://fiken.no/oauth/token`. */
  readonly tokenUrl: string;
  /** The adapter's configuration (the application's OAuth client among it). */
  readonly config: FikenConfig;
  /** How long an onboarding call may take, ms. */
  readonly timeoutMs: number;
}

/** Fiken: OAuth consent; the adapter books cash purchases. */
export const fiken: ProviderDefinition<FikenSettings> = {
  kind: 'fiken',
  displayName: 'Fiken',
  onboarding: 'oauth',
  // Fiken serves one request at a time per company and slows clients above ~4 requests/s: a
  // company's check is mostly waiting, so many run at once.
  dailyCheckConcurrency: 200,
  config: {
    variables: {
      /** The application's OAuth client (the secret is secret). */
      FIKEN_CLIENT_ID: values.text(),
      FIKEN_CLIENT_SECRET: values.text(),
      FIKEN_API_URL: values.httpUrl(),
      /** OAuth root: `{url}/authorize`, `{url}/token`. */
      FIKEN_OAUTH_URL: values.httpUrl(),
      /** Fiken API requests in flight at once from this instance, across every company (Fiken allows one). */
      FIKEN_MAX_CONCURRENT_REQUESTS: values.int(1, 100),
      /** At least this long between two Fiken request starts, across instances, ms (Fiken slows clients above 4/s). */
      FIKEN_REQUEST_PACE_MS: values.int(0, 10_000),
    },
    credentialsHint: 'FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET',
    hasCredentials: (env) => env.FIKEN_CLIENT_ID !== undefined,
    problems: (env) =>
      (env.FIKEN_CLIENT_ID === undefined) !== (env.FIKEN_CLIENT_SECRET === undefined)
        ? ['FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET must be set together']
        : [],
    settings(env, shared) {
      const clientId = env.FIKEN_CLIENT_ID as string | undefined;
      const clientSecret = env.FIKEN_CLIENT_SECRET as string | undefined;
      if (!clientId || !clientSecret) return { missing: 'FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET' };
      const oauthUrl = (env.FIKEN_OAUTH_URL as string | undefined) ?? 'https://fiken.no/oauth';
      return {
        apiUrl: (env.FIKEN_API_URL as string | undefined) ?? 'https://api.fiken.no/api/v2',
        authorizeUrl: `${oauthUrl}/authorize`,
        tokenUrl: `${oauthUrl}/token`,
        config: {
          clientId,
          clientSecret,
          maxConcurrentRequests: (env.FIKEN_MAX_CONCURRENT_REQUESTS as number | undefined) ?? 1,
          requestPaceMs: (env.FIKEN_REQUEST_PACE_MS as number | undefined) ?? 250,
          resilience: { timeoutMs: shared.timeoutMs, retries: shared.retries },
        },
        timeoutMs: shared.timeoutMs,
      };
    },
  },
  create(settings, { clock, tokenStore, requestSlots }) {
    return {
      adapter: new FikenProvider(settings.config, tokenStore, clock, requestSlots),
      grantExchange: new FikenGrantExchange(
        {
          apiUrl: settings.apiUrl,
          tokenUrl: settings.tokenUrl,
          clientId: settings.config.clientId,
          clientSecret: settings.config.clientSecret,
          timeoutMs: settings.timeoutMs,
        },
        clock,
      ),
      authorizeUrl({ state, redirectUri }) {
        const url = new URL(settings.authorizeUrl);
        url.searchParams.set('response_type', 'code');
        url.searchParams.set('client_id', settings.config.clientId);
        url.searchParams.set('redirect_uri', redirectUri);
        url.searchParams.set('state', state);
        return url.toString();
      },
      connectionOf(record): FikenConnection {
        return {
          provider: 'fiken',
          companyId: record.companyId,
          baseUrl: settings.apiUrl,
          tokenUrl: settings.tokenUrl,
          companySlug: record.externalCompanyId ?? '',
        };
      },
    };
  },
};
