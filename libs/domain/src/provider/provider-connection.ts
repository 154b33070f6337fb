/**
 * An accounting provider's kind as registered (`tripletex`, `fiken`, …): lower-case letters, digits
 * and hyphens. Which kinds exist is not the domain's to say: the provider registry (libs/providers)
 * lists them and answers through the `ProviderCatalog` port; this only says whether a stored or
 * signed value is shaped like one.
 */
export type ProviderKind = string;

const KIND = /^[a-z][a-z0-9-]{0,31}$/;

/** Whether `value` is shaped like a provider kind (the registry says whether it is one). */
export function isProviderKind(value: unknown): value is ProviderKind {
  return typeof value === 'string' && KIND.test(value);
}

/**
 * Everything an adapter needs to call the provider on one company's behalf. Each provider adds the
 * settings it needs (Tripletex the employee token's reader, Fiken the company slug and token URL):
 * its definition builds the connection from the stored record, and its adapter reads it back.
 * Secrets are never carried here as values, only as readers called when a call needs them.
 */
export interface ProviderConnection {
  readonly provider: ProviderKind;
  readonly companyId: string;
  /** The provider's API root, e.g. `https://tripletex.no/v2` or a sandbox URL. */
  readonly baseUrl: string;
}
