import { ConsoleSessionStore, type ConsoleGrant, type ConsoleLinkRejection } from '@app/domain';

/** Console links and sessions in maps (use-case and console tests). */
export class InMemoryConsoleSessionStore extends ConsoleSessionStore {
  private readonly links = new Map<string, { link: ConsoleGrant; usedAt: Date | null }>();
  private readonly sessions = new Map<string, ConsoleGrant>();

  async saveLink(link: ConsoleGrant): Promise<void> {
    this.links.set(link.digest, { link, usedAt: null });
  }

  async redeemLink(digest: string, now: Date): Promise<ConsoleGrant | ConsoleLinkRejection> {
    const entry = this.links.get(digest);
    if (!entry) return 'unknown';
    if (entry.usedAt) return 'used';
    if (entry.link.expiresAt.getTime() <= now.getTime()) return 'expired';
    entry.usedAt = now;
    return entry.link;
  }

  async findLink(digest: string, now: Date): Promise<ConsoleGrant | ConsoleLinkRejection> {
    const entry = this.links.get(digest);
    if (!entry) return 'unknown';
    if (entry.usedAt) return 'used';
    if (entry.link.expiresAt.getTime() <= now.getTime()) return 'expired';
    return entry.link;
  }

  async startSession(session: ConsoleGrant): Promise<void> {
    this.sessions.set(session.digest, session);
  }

  async findSession(digest: string, now: Date): Promise<ConsoleGrant | null> {
    const session = this.sessions.get(digest);
    return session && session.expiresAt.getTime() > now.getTime() ? session : null;
  }

  async endSession(digest: string): Promise<void> {
    this.sessions.delete(digest);
  }

  async endCompanySessions(companyId: string): Promise<number> {
    let ended = 0;
    for (const [digest, session] of this.sessions) {
      if (session.companyId === companyId) {
        this.sessions.delete(digest);
        ended += 1;
      }
    }
    for (const [digest, { link }] of this.links) if (link.companyId === companyId) this.links.delete(digest);
    return ended;
  }
}
