import type { FaultRegistry } from '../faults/fault-registry';
import type { ActiveFault, FaultSpec, ProviderName } from '../faults/fault-spec';
import type { SandboxProviderControl } from '../sandbox-provider';
import type { SandboxControlOf, SandboxKind } from '../sandbox-providers';
import type { CallFilter, CallLog, CallRecord } from './call-log';

/**
 * Test-side control of the sandboxes: faults, counters and resets across every provider, and each
 * provider's own data (companies, bookings, tokens) through `for(kind)`.
 */
export interface SandboxControl {
  /** Adds a fault (or performs a one-shot action such as `expireTokens`). */
  addFault(spec: FaultSpec): ActiveFault;
  removeFault(id: string): boolean;
  faults(): ActiveFault[];
  clearFaults(): void;
  /** Expires live session/access tokens now (Tripletex sessions, Fiken access tokens). Returns how many. */
  expireTokens(provider: ProviderName | 'all', companyId?: string): number;
  /** Makes every refresh token in scope unusable (the next refresh gets `invalid_grant`); providers without them have none. */
  revokeRefreshTokens(provider?: ProviderName | 'all', companyId?: string): number;
  /** Calls recorded so far, optionally filtered. */
  calls(filter?: CallFilter): CallRecord[];
  /** Number of calls per `provider METHOD route` since the last reset. */
  callCounts(): Record<string, number>;
  /** The kinds of the registered sandboxes. */
  kinds(): string[];
  /** One provider's own data and operations: `control.for('fiken').bookings('demo-fiken-as')`. */
  for<K extends SandboxKind>(kind: K): SandboxControlOf<K>;
  /** The same for a kind known only at run time; throws for a kind no sandbox has. */
  for(kind: string): SandboxProviderControl;
  /** Back to the seeded state: no faults, tokens, bookings, uploads, counters or rate windows. */
  reset(): void;
}

/** `providers`: each registered sandbox's kind and its control over its state. */
export function createControl(
  providers: ReadonlyMap<string, SandboxProviderControl>,
  faults: FaultRegistry,
  log: CallLog,
): SandboxControl {
  const controlOf = (kind: string): SandboxProviderControl => {
    const control = providers.get(kind);
    if (!control) throw new Error(`No sandbox provider ${kind}`);
    return control;
  };
  const inScope = (provider: ProviderName | 'all'): SandboxProviderControl[] =>
    provider === 'all' ? [...providers.values()] : [controlOf(provider)];
  const expireTokens = (provider: ProviderName | 'all', companyId?: string): number =>
    inScope(provider).reduce((sum, control) => sum + control.expireTokens({ provider, companyId }), 0);
  const revokeRefreshTokens = (provider: ProviderName | 'all' = 'all', companyId?: string): number =>
    inScope(provider).reduce((sum, control) => sum + (control.revokeRefreshTokens?.({ provider, companyId }) ?? 0), 0);

  return {
    addFault(spec) {
      if (spec.expireTokens) expireTokens(spec.provider, spec.companyId);
      if (spec.revokeRefreshTokens) revokeRefreshTokens(spec.provider, spec.companyId);
      return faults.add(spec);
    },
    removeFault: (id) => faults.remove(id),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    expireTokens,
    revokeRefreshTokens,
    calls: (filter) => log.list(filter),
    callCounts: () => log.counts(),
    kinds: () => [...providers.keys()],
    for: controlOf as SandboxControl['for'],
    reset() {
      faults.clear();
      log.clear();
      for (const control of providers.values()) control.reset();
    },
  };
}
