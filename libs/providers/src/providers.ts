import { fiken } from './fiken/fiken.definition';
import { tripletex } from './tripletex/tripletex.definition';

/**
 * The accounting providers the service speaks to, each defined in its own folder. Adding one is
 * its folder and a line here (docs/architecture.md, "How to add a provider").
 */
export const PROVIDERS = [tripletex, fiken] as const;

/** The registered kinds (`tripletex`, `fiken`), e.g. for the API description's enums. */
export const PROVIDER_KINDS: readonly string[] = PROVIDERS.map((p) => p.kind);

/** Each registered provider's name as people read it, by kind: `{ tripletex: 'Tripletex', … }`. */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  PROVIDERS.map((p) => [p.kind, p.displayName]),
);
