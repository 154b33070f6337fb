import { NotFound, type ProviderKind } from '@app/domain';
import { PROVIDER_KINDS } from '@app/providers';

/** The `{provider}` path segment: a registered provider's kind; anything else is no such resource (404). */
export function providerParam(value: string): ProviderKind {
  if (!PROVIDER_KINDS.includes(value)) throw new NotFound('provider', value);
  return value;
}
