import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  CONSOLE_LINK_TTL_MS,
  CONSOLE_SESSION_TTL_MS,
  ConsoleSessionStore,
  DomainError,
  roleAtLeast,
  type ConsoleGrant,
  type ConsoleLinkRejection,
  type Identity,
} from '@app/domain';

/** The lowest role that may use the console: reviewers and admins, never employees. */
export const CONSOLE_MIN_ROLE = 'manager' as const;

export interface IssuedConsoleLink {
  /** The secret that goes into the link; it exists only in the link and, as a digest, in storage. */
  readonly secret: string;
  readonly expiresAt: Date;
}

/** Whom an unused login link would sign in, before anyone uses it. */
export type PreviewedConsoleLink =
  | { readonly kind: 'valid'; readonly identity: Identity }
  | { readonly kind: 'refused'; readonly rejection: ConsoleLinkRejection };

export type OpenedConsoleLink =
  | { readonly kind: 'session'; readonly secret: string; readonly expiresAt: Date; readonly identity: Identity }
  | { readonly kind: 'refused'; readonly rejection: ConsoleLinkRejection };

/** What the store keeps of a secret: its SHA-256, hex. The secrets carry 256 random bits. */
export function consoleDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The identity a console session acts as: the token's, on the channel `web`. */
export function consoleIdentity(grant: ConsoleGrant): Identity {
  return {
    actor: grant.actor,
    company: grant.companyId,
    channel: 'web',
    role: grant.role,
    permissions: [...grant.permissions],
    tokenExpiresAt: grant.expiresAt,
  };
}

/**
 * The way into the web console. A verified gateway identity (manager or higher) gets a one-time
 * login link, valid for CONSOLE_LINK_TTL_MS; opening it starts a session of CONSOLE_SESSION_TTL_MS
 * that carries that identity (company, actor, role, permissions) and acts on the channel `web`.
 * Links and sessions are stored by digest only; logging out or deleting the company ends them.
 */
@Injectable()
export class ConsoleAccess {
  constructor(
    private readonly store: ConsoleSessionStore,
    private readonly clock: Clock,
  ) {}

  async issueLink(identity: Identity): Promise<IssuedConsoleLink> {
    if (!roleAtLeast(identity.role, CONSOLE_MIN_ROLE)) {
      throw new DomainError('role_insufficient', `the console is for the role ${CONSOLE_MIN_ROLE} or higher`);
    }
    const now = this.clock.now();
    const secret = newSecret();
    const expiresAt = new Date(now.getTime() + CONSOLE_LINK_TTL_MS);
    await this.store.saveLink({
      digest: consoleDigest(secret),
      companyId: identity.company,
      actor: identity.actor,
      role: identity.role,
      permissions: identity.permissions,
      createdAt: now,
      expiresAt,
    });
    return { secret, expiresAt };
  }

  /**
   * Whom a login link would sign in (company, person, role), without using it: the sign-in page
   * names them, and only the person's own click on that page redeems the link.
   */
  async previewLink(linkSecret: string): Promise<PreviewedConsoleLink> {
    const found = await this.store.findLink(consoleDigest(linkSecret), this.clock.now());
    if (typeof found === 'string') return { kind: 'refused', rejection: found };
    return { kind: 'valid', identity: consoleIdentity(found) };
  }

  /** Redeems a login link (once) and starts the session it grants. */
  async openLink(linkSecret: string): Promise<OpenedConsoleLink> {
    const now = this.clock.now();
    const redeemed = await this.store.redeemLink(consoleDigest(linkSecret), now);
    if (typeof redeemed === 'string') return { kind: 'refused', rejection: redeemed };
    const secret = newSecret();
    const session: ConsoleGrant = {
      ...redeemed,
      digest: consoleDigest(secret),
      createdAt: now,
      expiresAt: new Date(now.getTime() + CONSOLE_SESSION_TTL_MS),
    };
    await this.store.startSession(session);
    return { kind: 'session', secret, expiresAt: session.expiresAt, identity: consoleIdentity(session) };
  }

  /** The identity of a live session, or null for an unknown, ended or expired one. */
  async identityOf(sessionSecret: string): Promise<Identity | null> {
    const session = await this.store.findSession(consoleDigest(sessionSecret), this.clock.now());
    return session ? consoleIdentity(session) : null;
  }

  async logout(sessionSecret: string): Promise<void> {
    await this.store.endSession(consoleDigest(sessionSecret));
  }
}
