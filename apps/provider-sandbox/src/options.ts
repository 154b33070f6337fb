import { utcDate } from './shared/dates';

/** Seeding of one provider's companies. */
export interface SeedingOptions {
  /** How many companies the provider holds (index 0 is the demo company). */
  companies?: number;
  /** Seeded vouchers (Tripletex) or journal entries (Fiken) per company, including the opening balance. */
  entriesPerCompany?: number;
  /** Seeded customer invoices per company. */
  invoicesPerCompany?: number;
}

export interface TripletexOptions extends SeedingOptions {
  /** Lifetime of a session token in seconds, capped by the midnight of its `expirationDate`. Default 3600. */
  sessionTtlSeconds?: number;
  /** Requests allowed per employee token per window. Default 10 000 per 60 s. */
  rateLimit?: { limit: number; windowSeconds: number };
}

export interface FikenOptions extends SeedingOptions {
  /** `expires_in` of access tokens in seconds. Default 3600. */
  accessTokenTtlSeconds?: number;
  /** Lifetime of an authorization code in seconds. Default 600. */
  authorizationCodeTtlSeconds?: number;
  /** Requests per second per client grant before the sandbox slows them down. Default 0 (off); the real service slows clients above ~4. */
  requestsPerSecond?: number;
  /** Registered redirect URIs; any http(s) URI is accepted when omitted. */
  redirectUris?: string[];
}

export interface SandboxOptions {
  /** Seed of every generated fact. Default 4102. */
  seed?: number;
  /** The sandbox's clock; tokens, rate windows and overdue status read it. Default: the system clock. */
  now?: () => Date;
  /** The last day of the seeded ledgers (exclusive). Default: today (UTC) by `now()` at creation. */
  ledgerEndDate?: string;
  /** Days of seeded history before `ledgerEndDate`. Default 365. */
  ledgerDays?: number;
  /** Defaults for both providers' seeding; the provider sections override them. */
  companies?: number;
  entriesPerCompany?: number;
  invoicesPerCompany?: number;
  /** Latency added to every provider API call, in ms (one number or per provider). Default 0. */
  latencyMs?: number | { tripletex?: number; fiken?: number };
  /** Absolute base URL to use in `url` fields and `Location` headers instead of the request's host. */
  publicUrl?: string;
  /**
   * Whether the control endpoints (`/_sandbox`: reset, faults, tokens, call log) and the index at
   * `/` (which lists the sandbox credentials) are served over HTTP. Default true; the service turns
   * them off when it runs the sandbox in production. `Sandbox.control` works either way.
   */
  controlApi?: boolean;
  /** Maximum call records kept for `control.calls()`. Default 50 000. */
  callLogSize?: number;
  tripletex?: TripletexOptions;
  fiken?: FikenOptions;
}

interface ResolvedSeeding {
  companies: number;
  entriesPerCompany: number;
  invoicesPerCompany: number;
}

export interface ResolvedOptions {
  seed: number;
  now: () => Date;
  ledgerEndDate: string;
  ledgerDays: number;
  latency: { tripletex: number; fiken: number };
  publicUrl?: string;
  callLogSize: number;
  tripletex: ResolvedSeeding & {
    sessionTtlSeconds: number;
    rateLimit: { limit: number; windowSeconds: number };
  };
  fiken: ResolvedSeeding & {
    accessTokenTtlSeconds: number;
    authorizationCodeTtlSeconds: number;
    requestsPerSecond: number;
    redirectUris?: string[];
  };
}

const MAX_ENTRIES = 800_000;
const MAX_INVOICES = 9_999;

function seeding(section: SeedingOptions | undefined, options: SandboxOptions): ResolvedSeeding {
  const resolved = {
    companies: section?.companies ?? options.companies ?? 3,
    entriesPerCompany: section?.entriesPerCompany ?? options.entriesPerCompany ?? 240,
    invoicesPerCompany: section?.invoicesPerCompany ?? options.invoicesPerCompany ?? 60,
  };
  if (!Number.isInteger(resolved.companies) || resolved.companies < 1 || resolved.companies > 100_000) {
    throw new RangeError('companies must be an integer between 1 and 100 000');
  }
  if (
    !Number.isInteger(resolved.entriesPerCompany) ||
    resolved.entriesPerCompany < 1 ||
    resolved.entriesPerCompany > MAX_ENTRIES
  ) {
    throw new RangeError(`entriesPerCompany must be an integer between 1 and ${MAX_ENTRIES}`);
  }
  if (
    !Number.isInteger(resolved.invoicesPerCompany) ||
    resolved.invoicesPerCompany < 0 ||
    resolved.invoicesPerCompany > MAX_INVOICES
  ) {
    throw new RangeError(`invoicesPerCompany must be an integer between 0 and ${MAX_INVOICES}`);
  }
  return resolved;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const now = options.now ?? (() => new Date());
  const latency =
    typeof options.latencyMs === 'number'
      ? { tripletex: options.latencyMs, fiken: options.latencyMs }
      : { tripletex: options.latencyMs?.tripletex ?? 0, fiken: options.latencyMs?.fiken ?? 0 };
  return {
    seed: options.seed ?? 4102,
    now,
    ledgerEndDate: options.ledgerEndDate ?? utcDate(now()),
    ledgerDays: options.ledgerDays ?? 365,
    latency,
    publicUrl: options.publicUrl,
    callLogSize: options.callLogSize ?? 50_000,
    tripletex: {
      ...seeding(options.tripletex, options),
      sessionTtlSeconds: options.tripletex?.sessionTtlSeconds ?? 3600,
      rateLimit: options.tripletex?.rateLimit ?? { limit: 10_000, windowSeconds: 60 },
    },
    fiken: {
      ...seeding(options.fiken, options),
      accessTokenTtlSeconds: options.fiken?.accessTokenTtlSeconds ?? 3600,
      authorizationCodeTtlSeconds: options.fiken?.authorizationCodeTtlSeconds ?? 600,
      requestsPerSecond: options.fiken?.requestsPerSecond ?? 0,
      redirectUris: options.fiken?.redirectUris,
    },
  };
}
