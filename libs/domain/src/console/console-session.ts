import type { Permission, Role } from '../identity/identity';

/** How long a console login link may wait to be opened; it works once. */
export const CONSOLE_LINK_TTL_MS = 5 * 60 * 1000;

/** How long a console session lasts from the moment its link was opened (no sliding renewal). */
export const CONSOLE_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/**
 * Who a console link or session speaks for: the verified identity of the gateway token that asked
 * for the link, minus the channel (the console is always `web`). Stored by the SHA-256 digest of
 * its secret, never the secret itself.
 */
export interface ConsoleGrant {
  readonly digest: string;
  readonly companyId: string;
  readonly actor: string;
  readonly role: Role;
  readonly permissions: readonly Permission[];
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** Why a login link was not accepted (what the browser is told). */
export type ConsoleLinkRejection = 'unknown' | 'used' | 'expired';
