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
export type { Booking, FikenCompanyInfo, SandboxControl, TripletexCompanyInfo } from './control/control';
export type { CallFilter, CallRecord } from './control/call-log';
export type { ActiveFault, FaultSpec, ProviderName } from './faults/fault-spec';
export type { IssuedTokens } from './fiken/fiken-state';
export type { FikenPurchase, FikenJournalEntry, FikenAttachment } from './fiken/fiken-model';
export type { TxVoucher, TxPosting, TxDocument } from './tripletex/tripletex-model';
export { inspectSandboxExchanges } from './inspect/exchange-tap';
export type { ExchangeBody, ExchangeInspector, SandboxExchange } from './inspect/exchange-tap';
