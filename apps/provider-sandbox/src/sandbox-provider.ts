import type { Router } from 'express';
import type { CallLog } from './control/call-log';
import type { FaultRegistry } from './faults/fault-registry';
import type { ResolvedOptions } from './options';

/**
 * One provider's sandbox, declared by its own folder and listed once in `SANDBOX_PROVIDERS`: its
 * in-memory state, the router that answers as the real service does (mounted under `/{kind}`), and
 * the environment that points the service's adapter at it — the same variables the provider's
 * definition reads for the real service, so the service builds its settings one way in both modes.
 */
export interface SandboxProvider<State = unknown> {
  /** The provider's kind (its path segment in the service), and where the router is mounted. */
  readonly kind: string;
  createState(options: ResolvedOptions): State;
  router(state: State, faults: FaultRegistry, log: CallLog): Router;
  /** The provider's variables for a service using this sandbox, mounted at `{url}/{kind}`. */
  environment(url: string): Readonly<Record<string, string>>;
}
