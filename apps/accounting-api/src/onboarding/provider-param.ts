import { NotFound, isProviderKind, type ProviderKind } from '@app/domain';

/** The `{provider}` path segment: `tripletex` or `fiken`; anything else is no such resource (404). */
export function providerParam(value: string): ProviderKind {
  if (!isProviderKind(value)) throw new NotFound('provider', value);
  return value;
}
