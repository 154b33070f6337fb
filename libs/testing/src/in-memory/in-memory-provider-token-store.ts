import { OAuthTokens, ProviderKind, ProviderTokenStore, TokenRefreshDecision } from '@app/domain';

interface Entry {
  tokens: OAuthTokens | null;
  needsReauthorization: string | null;
}

/**
 * ProviderTokenStore in memory, for tests and the sandbox mode: the refresh lock is an in-process
 * FIFO mutex per (company, provider). Several adapter instances sharing one store behave like
 * several service processes sharing the database.
 */
export class InMemoryProviderTokenStore extends ProviderTokenStore {
  private readonly entries = new Map<string, Entry>();
  /** The tail of each key's queue of locked tasks: a task starts when the one before it settled. */
  private readonly locks = new Map<string, Promise<unknown>>();
  /** How many times tokens were rotated (stored by a refresh), per company and provider. */
  private readonly rotations = new Map<string, number>();

  /** Stores a fresh connection's tokens (onboarding), clearing any re-authorisation mark. */
  async save(companyId: string, provider: ProviderKind, tokens: OAuthTokens): Promise<void> {
    await this.locked(key(companyId, provider), async () => {
      this.entries.set(key(companyId, provider), { tokens, needsReauthorization: null });
    });
  }

  async current(companyId: string, provider: ProviderKind): Promise<OAuthTokens | null> {
    const entry = this.entries.get(key(companyId, provider));
    return entry && entry.needsReauthorization === null ? entry.tokens : null;
  }

  withRefreshLock(
    companyId: string,
    provider: ProviderKind,
    decide: (current: OAuthTokens | null) => Promise<TokenRefreshDecision>,
  ): Promise<OAuthTokens | null> {
    const k = key(companyId, provider);
    return this.locked(k, async () => {
      const entry = this.entries.get(k);
      const current = entry && entry.needsReauthorization === null ? entry.tokens : null;
      const decision = await decide(current);
      switch (decision.outcome) {
        case 'keep':
          return current;
        case 'rotated':
          this.entries.set(k, { tokens: decision.tokens, needsReauthorization: null });
          this.rotations.set(k, (this.rotations.get(k) ?? 0) + 1);
          return decision.tokens;
        case 'revoked':
          this.entries.set(k, { tokens: entry?.tokens ?? null, needsReauthorization: decision.reason });
          return null;
      }
    });
  }

  /** The reason the connection needs re-authorisation, or null. */
  reauthorizationReason(companyId: string, provider: ProviderKind): string | null {
    return this.entries.get(key(companyId, provider))?.needsReauthorization ?? null;
  }

  rotationCount(companyId: string, provider: ProviderKind): number {
    return this.rotations.get(key(companyId, provider)) ?? 0;
  }

  /** Tokens as stored, ignoring the re-authorisation mark (for assertions). */
  stored(companyId: string, provider: ProviderKind): OAuthTokens | null {
    return this.entries.get(key(companyId, provider))?.tokens ?? null;
  }

  private locked<T>(k: string, task: () => Promise<T>): Promise<T> {
    const result = (this.locks.get(k) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.locks.set(k, tail);
    void tail.then(() => {
      if (this.locks.get(k) === tail) this.locks.delete(k);
    });
    return result;
  }
}

function key(companyId: string, provider: ProviderKind): string {
  return `${provider} ${companyId}`;
}
