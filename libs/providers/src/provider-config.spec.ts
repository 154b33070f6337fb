import { fiken } from './fiken/fiken.definition';
import {
  hasProviderCredentials,
  parseProviderVariables,
  providerCredentialsHint,
  providerSettingsOf,
  providerVariables,
} from './provider-config';
import { PROVIDERS } from './providers';
import { tripletex } from './tripletex/tripletex.definition';

const shared = { timeoutMs: 3_000, retries: 2 };

describe("the providers' configuration fragments", () => {
  it("collects every provider's variables, and refuses one declared twice", () => {
    expect(Object.keys(providerVariables(PROVIDERS)).sort()).toEqual([
      'FIKEN_API_URL',
      'FIKEN_CLIENT_ID',
      'FIKEN_CLIENT_SECRET',
      'FIKEN_MAX_CONCURRENT_REQUESTS',
      'FIKEN_OAUTH_URL',
      'FIKEN_REQUEST_PACE_MS',
      'TRIPLETEX_BASE_URL',
      'TRIPLETEX_CONSENT_URL',
      'TRIPLETEX_CONSUMER_TOKEN',
    ]);
    const copy = { ...tripletex, kind: 'tripletex-copy' };
    expect(() => providerVariables([tripletex, copy])).toThrow(
      'environment variable TRIPLETEX_CONSUMER_TOKEN is declared twice (tripletex-copy)',
    );
  });

  it('builds each provider its settings from its variables, with the shared ones', () => {
    const env = parseProviderVariables(PROVIDERS, {
      TRIPLETEX_CONSUMER_TOKEN: 'consumer',
      FIKEN_CLIENT_ID: 'client',
      FIKEN_CLIENT_SECRET: 'secret',
      FIKEN_API_URL: 'https://fiken.example/api/v2//',
    });
    expect(providerSettingsOf(PROVIDERS, env, shared)).toEqual({
      tripletex: {
        apiUrl: 'https://tripletex.no/v2',
        consentUrl: null,
        config: { consumerToken: 'consumer', resilience: shared },
        timeoutMs: 3_000,
      },
      fiken: {
        apiUrl: 'https://fiken.example/api/v2',
        authorizeUrl: 'https://fiken.no/oauth/authorize',
        tokenUrl: 'https://fiken.no/oauth/token',
        config: {
          clientId: 'client',
          clientSecret: 'secret',
          maxConcurrentRequests: 1,
          requestPaceMs: 250,
          resilience: shared,
        },
        timeoutMs: 3_000,
      },
    });
  });

  it("names every provider's missing credentials at once, and what credentials are", () => {
    expect(() => providerSettingsOf(PROVIDERS, { FIKEN_CLIENT_ID: 'client' }, shared)).toThrow(
      'TRIPLETEX_CONSUMER_TOKEN and FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET must be configured when PROVIDER_SANDBOX is off',
    );
    expect(hasProviderCredentials(PROVIDERS, {})).toBe(false);
    expect(hasProviderCredentials(PROVIDERS, { FIKEN_CLIENT_ID: 'client' })).toBe(true);
    expect(providerCredentialsHint([tripletex, fiken])).toBe(
      'TRIPLETEX_CONSUMER_TOKEN, or FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET',
    );
  });

  it('refuses a value its schema refuses', () => {
    expect(() => parseProviderVariables(PROVIDERS, { FIKEN_MAX_CONCURRENT_REQUESTS: '0' })).toThrow(
      /FIKEN_MAX_CONCURRENT_REQUESTS/,
    );
    expect(() => parseProviderVariables(PROVIDERS, { TRIPLETEX_BASE_URL: 'ftp://x' })).toThrow(/http: or https:/);
  });
});
