// Public surface of @app/providers: the Tripletex and Fiken adapters of AccountingProvider.
// Test doubles (InMemoryProviderTokenStore, describeProviderTokenStoreContract) live in ./testing,
// outside the production build (tsconfig.build.json excludes **/testing/** and *.contract.ts).
export * from './providers.module';
export * from './routing-accounting-provider';
export { TripletexProvider } from './tripletex/tripletex.provider';
export type { TripletexConfig } from './tripletex/tripletex.config';
export { FikenProvider } from './fiken/fiken.provider';
export type { FikenConfig } from './fiken/fiken.config';
export { DEFAULT_RESILIENCE } from './http/resilience';
export type { ResilienceOptions } from './http/resilience';
export { TransportError } from './http/transport-error';
export { splitGross } from './shared/money';
export { readableReference } from './shared/booking-text';
export { tripletexSessionExpirationDate } from './shared/dates';
