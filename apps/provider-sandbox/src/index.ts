export {
  createSandbox,
  sandboxEnvironment,
  sandboxUrls,
  type RunningSandbox,
  type Sandbox,
  type SandboxUrls,
} from './sandbox';
export type { FikenOptions, SandboxOptions, SeedingOptions, TripletexOptions } from './options';
export {
  SANDBOX_FIKEN_CLIENT_ID,
  SANDBOX_FIKEN_CLIENT_SECRET,
  SANDBOX_FIKEN_DEMO_SLUG,
  SANDBOX_TRIPLETEX_CONSUMER_TOKEN,
  SANDBOX_TRIPLETEX_EMPLOYEE_TOKEN,
  fikenCompanySlug,
  tripletexEmployeeToken,
} from './constants';
export type { SandboxControl } from './control/control';
export type { SandboxProviderControl } from './sandbox-provider';
export type { SandboxControlOf, SandboxKind } from './sandbox-providers';
export type { TripletexCompanyInfo, TripletexControl } from './tripletex/tripletex.control';
export type { FikenCompanyInfo, FikenControl } from './fiken/fiken.control';
export type { CallFilter, CallRecord } from './control/call-log';
export type { ActiveFault, FaultSpec, ProviderName } from './faults/fault-spec';
export type { IssuedTokens } from './fiken/fiken-state';
export type { FikenPurchase, FikenJournalEntry, FikenAttachment } from './fiken/fiken-model';
export type { TxVoucher, TxPosting, TxDocument } from './tripletex/tripletex-model';
export { inspectSandboxExchanges } from './inspect/exchange-tap';
export type { ExchangeBody, ExchangeInspector, SandboxExchange } from './inspect/exchange-tap';
