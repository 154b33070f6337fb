import { z } from 'zod';

/**
 * A provider's share of the service's configuration, declared in its own folder: the environment
 * variables it reads (validated with the rest of the environment at boot, every bad one reported
 * at once), and how its settings are built from them. The app collects the fragments of every
 * registered provider (`providerVariables`, `providerSettingsOf`), so adding a provider touches
 * neither the environment schema nor the app's configuration.
 */
export interface ProviderConfig<Settings> {
  /** Its environment variables, each with its schema; a value is optional (unset or blank is absent). */
  readonly variables: Readonly<Record<string, z.ZodType>>;
  /** What its variables name when the environment has none of its credentials, for the boot's refusal. */
  readonly credentialsHint: string;
  /** Whether `env` holds its credentials (a production instance needs some provider's). */
  hasCredentials(env: ProviderEnv): boolean;
  /** Combinations of its own variables that do not go together (each a problem of the boot's report). */
  problems?(env: ProviderEnv): string[];
  /**
   * Its settings from its variables and the shared ones. Returns the credentials that are missing
   * (as people configure them) instead, when there are any.
   */
  settings(env: ProviderEnv, shared: SharedProviderSettings): Settings | { readonly missing: string };
}

/** The parsed values of the providers' variables, by variable name (absent when unset). */
export type ProviderEnv = Readonly<Record<string, unknown>>;

/** What every provider is built with from the service's own configuration. */
export interface SharedProviderSettings {
  /** Per-attempt timeout of provider calls, ms. */
  readonly timeoutMs: number;
  /** Retries of transient provider failures. */
  readonly retries: number;
}

interface Configurable {
  readonly kind: string;
  readonly config: ProviderConfig<unknown>;
}

/**
 * The environment variables the providers read, with their schemas, for the environment's one
 * schema. A variable two providers declare is a programming error.
 */
export function providerVariables(definitions: readonly Configurable[]): Record<string, z.ZodType> {
  const variables: Record<string, z.ZodType> = {};
  for (const definition of definitions) {
    for (const [name, schema] of Object.entries(definition.config.variables)) {
      if (name in variables) throw new Error(`environment variable ${name} is declared twice (${definition.kind})`);
      variables[name] = schema;
    }
  }
  return variables;
}

/** The problems among the providers' own variables (they are valid one by one). */
export function providerProblems(definitions: readonly Configurable[], env: ProviderEnv): string[] {
  return definitions.flatMap((definition) => definition.config.problems?.(env) ?? []);
}

/** Whether `env` holds the credentials of some provider. */
export function hasProviderCredentials(definitions: readonly Configurable[], env: ProviderEnv): boolean {
  return definitions.some((definition) => definition.config.hasCredentials(env));
}

/** "TRIPLETEX_CONSUMER_TOKEN, or FIKEN_CLIENT_ID and FIKEN_CLIENT_SECRET": what a provider's credentials are. */
export function providerCredentialsHint(definitions: readonly Configurable[]): string {
  return definitions.map((definition) => definition.config.credentialsHint).join(', or ');
}

/**
 * Each provider's settings by kind, built by its own fragment. Throws naming every provider's
 * missing credentials at once.
 */
export function providerSettingsOf(
  definitions: readonly Configurable[],
  env: ProviderEnv,
  shared: SharedProviderSettings,
): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const definition of definitions) {
    const built = definition.config.settings(env, shared);
    if (isMissing(built)) missing.push(built.missing);
    else settings[definition.kind] = built;
  }
  if (missing.length > 0) throw new Error(`${missing.join(' and ')} must be configured when PROVIDER_SANDBOX is off`);
  return settings;
}

function isMissing(value: unknown): value is { missing: string } {
  return typeof value === 'object' && value !== null && 'missing' in value && Object.keys(value).length === 1;
}

/**
 * Parses values of the providers' variables that come from elsewhere than the environment (the
 * sandbox's own address and credentials), with the same schemas. Throws on a value its schema refuses.
 */
export function parseProviderVariables(
  definitions: readonly Configurable[],
  values: Readonly<Record<string, string>>,
): ProviderEnv {
  const schema = z.object(providerVariables(definitions)).partial();
  return schema.parse(values);
}

/** The values the providers' variables take (schemas for their fragments). */
export const providerEnvValues = {
  /** Any text; e.g. a token. */
  text: () => z.string().optional(),
  /** An http(s) URL, without trailing slashes. */
  httpUrl: () =>
    z
      .string()
      .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), {
        error: 'must be a http: or https: URL',
      })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
  /** An integer from `min` to `max`. */
  int: (min: number, max = Number.MAX_SAFE_INTEGER) =>
    z
      .string()
      .regex(/^\d+$/, { error: `must be an integer from ${min} to ${max}` })
      .transform(Number)
      .pipe(
        z
          .number()
          .min(min, { error: `must be an integer from ${min} to ${max}` })
          .max(max, { error: `must be an integer from ${min} to ${max}` }),
      )
      .optional(),
};
