import type { Channel } from '../identity/identity';

/**
 * Who caused an action and through what: the parts of the audit identity chain (spec §2.2) that come
 * from the request. `actor` is the token's `sub`; `provider` is the company's connected accounting
 * provider (`tripletex`, `fiken`) or null when none is connected or none is involved.
 */
export interface EventOrigin {
  readonly actor: string;
  readonly channel: Channel;
  readonly provider: string | null;
}

/** The form of an actor's email by which people are told apart: trimmed, lower case. */
export function actorKey(actor: string): string {
  return actor.trim().toLowerCase();
}

/** Same person? Emails compare case-insensitively. */
export function sameActor(a: string, b: string): boolean {
  return actorKey(a) === actorKey(b);
}
