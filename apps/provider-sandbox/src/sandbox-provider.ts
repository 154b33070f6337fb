import type { Router } from 'express';
import type { CallLog } from './control/call-log';
import type { FaultRegistry } from './faults/fault-registry';
import type { FaultSpec } from './faults/fault-spec';
import type { ResolvedOptions } from './options';

/**
 * What every sandbox provider lets the tests do to its own data (`Sandbox.control.for(kind)`, and
 * over HTTP under `/_sandbox`). A provider adds its own operations beside these (Tripletex's
 * employee tokens and withheld entitlements, Fiken's issued tokens).
 */
export interface SandboxProviderControl<Booking = unknown, CompanyInfo extends { index: number } = { index: number }> {
  /** The seeded companies (`GET /_sandbox/{kind}/companies`). */
  companies(): CompanyInfo[];
  company(index: number): CompanyInfo;
  /**
   * Bookings made through the API for a company, in the shape the provider stores them (amounts in
   * øre): by index, or by a key the provider knows the company by (`GET /_sandbox/bookings/{kind}/{company}`).
   * Throws for an unknown company.
   */
  bookings(company: string | number): Booking[];
  /** Expires the live session/access tokens in the fault's scope now (refresh tokens stay valid). Returns how many. */
  expireTokens(scope: FaultSpec): number;
  /** Makes every refresh token in scope unusable, for a provider that has them. Returns how many. */
  revokeRefreshTokens?(scope: FaultSpec): number;
  /**
   * Credentials for a company without the consent step (`POST /_sandbox/{kind}/tokens`), for a
   * provider that hands them out; throws for an unknown company.
   */
  issueTokens?(company: string | number): unknown;
  /**
   * What the provider's request limits saw since the last reset (`GET /_sandbox/{kind}/traffic`), for
   * a provider whose sandbox enforces a concurrency rule.
   */
  traffic?(): unknown;
  /** Back to the seeded state: no tokens, bookings, uploads or rate windows. */
  reset(): void;
}

/**
 * One provider's sandbox, declared by its own folder and listed once in `SANDBOX_PROVIDERS`: its
 * in-memory state, the router that answers as the real service does (mounted under `/{kind}`), the
 * environment that points the service's adapter at it — the same variables the provider's
 * definition reads for the real service, so the service builds its settings one way in both
 * modes — and the control the tests drive it with.
 */
export interface SandboxProvider<
  Kind extends string = string,
  State = unknown,
  Control extends SandboxProviderControl<unknown, { index: number }> = SandboxProviderControl,
> {
  /** The provider's kind (its path segment in the service), and where the router is mounted. */
  readonly kind: Kind;
  createState(options: ResolvedOptions): State;
  router(state: State, faults: FaultRegistry, log: CallLog): Router;
  /** The provider's variables for a service using this sandbox, mounted at `{url}/{kind}`. */
  environment(url: string): Readonly<Record<string, string>>;
  control(state: State): Control;
}
