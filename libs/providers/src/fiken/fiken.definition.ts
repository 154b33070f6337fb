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
  create(settings, { clock, tokenStore }) {
    return {
      adapter: new FikenProvider(settings.config, tokenStore, clock),
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
