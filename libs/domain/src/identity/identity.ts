/**
 * Who is asking: the verified claims of the gateway's service token (docs/api.md §2). It is the
 * identity chain every stored event carries (actor, company, channel).
 */
export const ROLES = ['employee', 'manager', 'accountant', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = ['solve', 'query', 'facts', 'monitor', 'rules', 'config'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const CHANNELS = ['slack', 'discord', 'teams', 'web', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];

/** The permission groups each role may hold: the role caps whatever the token lists (§2). */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  employee: ['solve', 'query', 'facts'],
  manager: ['solve', 'query', 'facts', 'monitor'],
  accountant: ['solve', 'query', 'facts', 'monitor', 'rules'],
  admin: ['solve', 'query', 'facts', 'monitor', 'rules', 'config'],
};

export interface Identity {
  /** The employee's email (the token's `sub`); the `actor` of every event the request stores. */
  actor: string;
  company: string;
  channel: Channel;
  role: Role;
  /** The token's permissions that its role allows, in canonical order. */
  permissions: Permission[];
  tokenExpiresAt: Date;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

/** employee < manager < accountant < admin. */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

/** The permissions a token really grants: those it lists that its role may hold. */
export function effectivePermissions(role: Role, listed: readonly Permission[]): Permission[] {
  const allowed = ROLE_PERMISSIONS[role];
  return PERMISSIONS.filter((p) => listed.includes(p) && allowed.includes(p));
}

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
