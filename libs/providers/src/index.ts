// Public surface of @app/providers: the registered accounting providers (each in its own folder,
// listed in providers.ts) and the registry the app builds from them.
// Test doubles (InMemoryProviderTokenStore, describeProviderTokenStoreContract) live in ./testing,
// outside the production build (tsconfig.build.json excludes **/testing/** and *.contract.ts).
export * from './providers.module';
export * from './routing-accounting-provider';
export { PROVIDERS, PROVIDER_KINDS, PROVIDER_NAMES } from './providers';
export { ProviderRegistry, type AnyProviderDefinition, type ProviderSettings } from './provider-registry';
export {
  hasProviderCredentials,
  parseProviderVariables,
  providerCredentialsHint,
  providerEnvValues,
  providerProblems,
  providerSettingsOf,
  providerVariables,
  type ProviderConfig,
  type ProviderEnv,
  type SharedProviderSettings,
} from './provider-config';
export type { GrantRedeemer, ProviderDefinition, ProviderDependencies, ProviderParts } from './provider-definition';
export { attachOnce, bookThenAttach, type BookingSteps } from './shared/book-then-attach';
export type { ReceiptTarget } from './shared/receipt-format';
export { TripletexProvider } from './tripletex/tripletex.provider';
export type { TripletexConfig } from './tripletex/tripletex.config';
export type { TripletexConnection } from './tripletex/tripletex-connection';
export { tripletex, type TripletexSettings } from './tripletex/tripletex.definition';
export { FikenProvider } from './fiken/fiken.provider';
export type { FikenConfig } from './fiken/fiken.config';
export type { FikenConnection } from './fiken/fiken-connection';
export { fiken, type FikenSettings } from './fiken/fiken.definition';
export { DEFAULT_RESILIENCE } from './http/resilience';
export type { ResilienceOptions } from './http/resilience';
export { TransportError } from './http/transport-error';
export { SharedRequestSlots, SharedSlotUnavailable, type SlotHold } from './ports/shared-request-slots.port';
export type { SlotPriority } from './http/request-slots';
export { splitGross } from './shared/money';
export { readableReference } from './shared/booking-text';
export { tripletexSessionExpirationDate } from './shared/dates';
