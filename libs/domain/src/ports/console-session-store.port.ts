import type { ConsoleGrant, ConsoleLinkRejection } from '../console/console-session';

/**
 * One-time console login links and the browser sessions they open, each kept by the digest of
 * its secret (a stolen table opens nothing).
 */
export abstract class ConsoleSessionStore {
  /** Remembers an unused login link. */
  abstract saveLink(link: ConsoleGrant): Promise<void>;

  /**
   * Marks the link used and returns it, atomically: of two browsers opening one link, one gets it.
   * A used, expired or unknown link is refused with the reason.
   */
  abstract redeemLink(digest: string, now: Date): Promise<ConsoleGrant | ConsoleLinkRejection>;

  /** The link as `redeemLink` would find it, without using it (the sign-in page shows whom it opens). */
  abstract findLink(digest: string, now: Date): Promise<ConsoleGrant | ConsoleLinkRejection>;

  abstract startSession(session: ConsoleGrant): Promise<void>;

  /** The session, while it has neither expired nor been ended. */
  abstract findSession(digest: string, now: Date): Promise<ConsoleGrant | null>;

  abstract endSession(digest: string): Promise<void>;

  /** Ends every session and unused link of a company (the company is being deleted). */
  abstract endCompanySessions(companyId: string): Promise<number>;
}
