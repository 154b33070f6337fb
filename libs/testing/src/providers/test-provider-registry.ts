import { Clock, ProviderTokenStore } from '@app/domain';
import {
  PROVIDERS,
  ProviderRegistry,
  type AnyProviderDefinition,
  type FikenSettings,
  type ProviderSettings,
  type TripletexSettings,
} from '@app/providers';
import { ManualClock } from '../time/manual-clock';
import { InMemoryProviderTokenStore } from '../in-memory/in-memory-provider-token-store';

/** Settings for the real providers pointing at hosts that do not exist (a test that calls them points them elsewhere). */
export function testProviderSettings(
  overrides: { tripletex?: Partial<TripletexSettings>; fiken?: Partial<FikenSettings> } = {},
): { tripletex: TripletexSettings; fiken: FikenSettings } {
  return {
    tripletex: {
      apiUrl: 'https://tripletex.test/v2',
      consentUrl: null,
      config: { consumerToken: 'consumer' },
      timeoutMs: 2_000,
      ...overrides.tripletex,
    },
    fiken: {
      apiUrl: 'https://fiken.test/api/v2',
      authorizeUrl: 'https://fiken.test/oauth/authorize',
      tokenUrl: 'https://fiken.test/oauth/token',
      config: { clientId: 'client', clientSecret: 'secret' },
      timeoutMs: 2_000,
      ...overrides.fiken,
    },
  };
}

/** The registry as the app builds it (`PROVIDERS`, plus any test-only ones), with test settings. */
export function testProviderRegistry(
  options: {
    definitions?: readonly AnyProviderDefinition[];
    settings?: ProviderSettings;
    clock?: Clock;
    tokenStore?: ProviderTokenStore;
  } = {},
): ProviderRegistry {
  return new ProviderRegistry(
    options.definitions ?? PROVIDERS,
    { ...testProviderSettings(), ...options.settings },
    { clock: options.clock ?? new ManualClock(), tokenStore: options.tokenStore ?? new InMemoryProviderTokenStore() },
  );
}
