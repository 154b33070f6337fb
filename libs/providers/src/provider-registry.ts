import {
  AccountingProvider,
  ProviderCatalog,
  ProviderError,
  ProviderGrantExchange,
  type GrantProof,
  type OnboardingKind,
  type ProviderConnection,
  type ProviderConnectionRecord,
  type ProviderKind,
  type RedeemedGrant,
} from '@app/domain';
import type { ProviderDefinition, ProviderDependencies, ProviderParts } from './provider-definition';

/** A definition whose settings type is not known here (the registry hands each its own). */
export type AnyProviderDefinition = ProviderDefinition<any>;

/** Each registered kind's settings, as its definition's `create` takes them. */
export type ProviderSettings = Readonly<Record<ProviderKind, unknown>>;

interface Registered {
  readonly definition: AnyProviderDefinition;
  readonly parts: ProviderParts;
}

/**
 * The registered providers built with their settings, keyed by kind: the `ProviderCatalog` the
 * use cases ask, the `ProviderGrantExchange` that hands a proof to its provider, and the adapter
 * `RoutingAccountingProvider` sends each call to. A kind registered twice, or one without settings,
 * fails at boot.
 */
export class ProviderRegistry extends ProviderCatalog {
  private readonly byKind = new Map<ProviderKind, Registered>();

  constructor(
    definitions: readonly AnyProviderDefinition[],
    settings: ProviderSettings,
    dependencies: ProviderDependencies,
  ) {
    super();
    for (const definition of definitions) {
      if (this.byKind.has(definition.kind)) throw new Error(`provider ${definition.kind} is registered twice`);
      if (!(definition.kind in settings)) throw new Error(`provider ${definition.kind} has no settings`);
      const parts = definition.create(settings[definition.kind], dependencies);
      this.byKind.set(definition.kind, { definition, parts });
    }
  }

  kinds(): readonly ProviderKind[] {
    return [...this.byKind.keys()];
  }

  isRegistered(kind: string): boolean {
    return this.byKind.has(kind);
  }

  displayName(kind: ProviderKind): string {
    return this.get(kind).definition.displayName;
  }

  onboarding(kind: ProviderKind): OnboardingKind {
    return this.get(kind).definition.onboarding;
  }

  authorizeUrl(kind: ProviderKind, request: { state: string; redirectUri: string; tokenFormUrl: string }): string {
    return this.get(kind).parts.authorizeUrl(request);
  }

  connectionOf(record: ProviderConnectionRecord, storedToken: () => Promise<string>): ProviderConnection {
    return this.get(record.provider).parts.connectionOf(record, storedToken);
  }

  /** The adapter of `kind`; a connection of a kind nobody registered is a programming error. */
  adapter(kind: ProviderKind): AccountingProvider {
    return this.get(kind).parts.adapter;
  }

  /** `ProviderGrantExchange` over the registered providers' exchanges. */
  grantExchange(): ProviderGrantExchange {
    return new RegistryGrantExchange(this.byKind);
  }

  private get(kind: ProviderKind): Registered {
    const registered = this.byKind.get(kind);
    if (!registered) throw new Error(`no accounting provider ${kind} is registered`);
    return registered;
  }
}

class RegistryGrantExchange extends ProviderGrantExchange {
  constructor(private readonly byKind: ReadonlyMap<ProviderKind, Registered>) {
    super();
  }

  redeem(provider: ProviderKind, proof: GrantProof): Promise<RedeemedGrant> {
    const registered = this.byKind.get(provider);
    if (!registered) {
      return Promise.reject(
        new ProviderError(provider, 'rejected', `no accounting provider ${provider} is registered`),
      );
    }
    return registered.parts.grantExchange.redeem(proof);
  }
}
