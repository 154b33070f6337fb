import { fikenSandbox } from './fiken/fiken.sandbox';
import { tripletexSandbox } from './tripletex/tripletex.sandbox';

/**
 * The providers' sandboxes, each declared by its own folder (`<kind>/<kind>.sandbox.ts`): adding
 * one is its folder and a line here. Its kind and its control's type come from here
 * (`Sandbox.control.for(kind)`), so the line is all the registration there is.
 */
export const SANDBOX_PROVIDERS = [tripletexSandbox, fikenSandbox] as const;

type RegisteredSandbox = (typeof SANDBOX_PROVIDERS)[number];

/** The registered sandboxes' kinds: `'tripletex' | 'fiken'`. */
export type SandboxKind = RegisteredSandbox['kind'];

/** The control of the sandbox of `kind`, with its own operations: `TripletexControl` for `'tripletex'`. */
export type SandboxControlOf<K extends SandboxKind> = ReturnType<Extract<RegisteredSandbox, { kind: K }>['control']>;
