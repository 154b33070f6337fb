import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  Clock,
  IdGenerator,
  ProviderTokenStore,
  TokenVault,
  type OAuthTokens,
  type ProviderKind,
  type TokenRefreshDecision,
} from '@app/domain';
import { connectionLockKey, KeyedMutex, PROCESS_CONNECTION_LOCKS } from './connection-locks';
import { markNeedsReauthorization } from './reauthorization';

interface TokenSqlRow {
  provider: string;
  status: string;
  access_token: Buffer | null;
  refresh_token: Buffer | null;
  access_token_expires_at: Date | null;
}

/**
 * Fiken's OAuth tokens in `provider_connections`, sealed with the company's DEK.
 *
 * The refresh lock is taken in two steps: the process's lock on the company's connection (so that
 * callers of one process queue without holding database connections), then one transaction
 * holding `SELECT … FOR UPDATE` on the row for the whole refresh — the lock across processes.
 * Rotated tokens and a re-authorisation mark are written in that transaction.
 * Tokens are opened from the vault only inside the lock and never leave this class except to `decide`
 * and as the return value.
 */
@Injectable()
export class TypeOrmProviderTokenStore extends ProviderTokenStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly vault: TokenVault,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly locks: KeyedMutex = PROCESS_CONNECTION_LOCKS,
  ) {
    super();
  }

  async current(companyId: string, provider: ProviderKind): Promise<OAuthTokens | null> {
    return this.open(companyId, provider, await this.read(this.dataSource.manager, companyId, false));
  }

  withRefreshLock(
    companyId: string,
    provider: ProviderKind,
    decide: (current: OAuthTokens | null) => Promise<TokenRefreshDecision>,
  ): Promise<OAuthTokens | null> {
    return this.locks.run(connectionLockKey(companyId), () =>
      this.dataSource.transaction((tx) => this.refresh(tx, companyId, provider, decide)),
    );
  }

  private async refresh(
    manager: EntityManager,
    companyId: string,
    provider: ProviderKind,
    decide: (current: OAuthTokens | null) => Promise<TokenRefreshDecision>,
  ): Promise<OAuthTokens | null> {
    const row = await this.read(manager, companyId, true);
    const current = await this.open(companyId, provider, row);
    const decision = await decide(current);
    switch (decision.outcome) {
      case 'keep':
        return current;
      case 'rotated': {
        if (!row || row.provider !== provider) {
          throw new Error(`company ${companyId} has no ${provider} connection to store refreshed tokens in`);
        }
        const { tokens } = decision;
        const access = await this.vault.seal(companyId, provider, 'access_token', tokens.accessToken);
        const refresh = await this.vault.seal(companyId, provider, 'refresh_token', tokens.refreshToken);
        await manager.query(
          `UPDATE provider_connections
              SET access_token = $2, refresh_token = $3, access_token_expires_at = $4,
                  status = 'connected', reauthorization_reason = NULL, updated_at = $5
            WHERE company_id = $1`,
          [
            companyId,
            Buffer.from(access.ciphertext),
            Buffer.from(refresh.ciphertext),
            new Date(tokens.expiresAt),
            this.clock.now(),
          ],
        );
        return tokens;
      }
      case 'revoked':
        if (row && row.provider === provider) {
          await markNeedsReauthorization(manager, companyId, decision.reason, this.clock.now(), this.ids);
        }
        return null;
    }
  }

  private async read(manager: EntityManager, companyId: string, forUpdate: boolean): Promise<TokenSqlRow | null> {
    const rows: TokenSqlRow[] = await manager.query(
      `SELECT provider, status, access_token, refresh_token, access_token_expires_at
         FROM provider_connections WHERE company_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [companyId],
    );
    return rows[0] ?? null;
  }

  private async open(companyId: string, provider: ProviderKind, row: TokenSqlRow | null): Promise<OAuthTokens | null> {
    if (!row || row.provider !== provider || row.status !== 'connected') return null;
    if (!row.access_token || !row.refresh_token || !row.access_token_expires_at) return null;
    return {
      accessToken: await this.vault.open(companyId, provider, 'access_token', { ciphertext: row.access_token }),
      refreshToken: await this.vault.open(companyId, provider, 'refresh_token', { ciphertext: row.refresh_token }),
      expiresAt: new Date(row.access_token_expires_at).getTime(),
    };
  }
}
