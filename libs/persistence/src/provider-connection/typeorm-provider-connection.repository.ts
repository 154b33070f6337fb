import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  Clock,
  IdGenerator,
  ProviderConnectionRepository,
  ProviderReauthorizationRequired,
  TokenVault,
  type NewProviderConnection,
  type ProviderKind,
  type ProviderConnectionRecord,
} from '@app/domain';
import { connectionLockKey, KeyedMutex, PROCESS_CONNECTION_LOCKS } from './connection-locks';
import { CONNECTION_COLUMNS, toRecord, type ConnectionSqlRow } from './provider-connection.mapper';
import { markNeedsReauthorization } from './reauthorization';

/**
 * Provider connections in `provider_connections`. Tokens are sealed with the company's DEK before
 * the statement that stores them and opened only by `employeeToken` (Tripletex) or the token store
 * (Fiken); no other method reads the token columns.
 */
@Injectable()
export class TypeOrmProviderConnectionRepository extends ProviderConnectionRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly vault: TokenVault,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly locks: KeyedMutex = PROCESS_CONNECTION_LOCKS,
  ) {
    super();
  }

  async find(companyId: string): Promise<ProviderConnectionRecord | null> {
    const rows: ConnectionSqlRow[] = await this.dataSource.query(
      `SELECT ${CONNECTION_COLUMNS} FROM provider_connections WHERE company_id = $1`,
      [companyId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  connect(connection: NewProviderConnection): Promise<ProviderConnectionRecord> {
    const { companyId, grant } = connection;
    return this.locks.run(connectionLockKey(companyId), async () => {
      let employeeToken: Uint8Array | null = null;
      let accessToken: Uint8Array | null = null;
      let refreshToken: Uint8Array | null = null;
      let expiresAt: Date | null = null;
      const { provider, secret } = grant;
      // A `token` provider's secret goes in employee_token (the column's name is Tripletex's, its first user).
      switch (secret.kind) {
        case 'token':
          employeeToken = (await this.vault.seal(companyId, provider, 'employee_token', secret.token)).ciphertext;
          break;
        case 'oauth':
          accessToken = (await this.vault.seal(companyId, provider, 'access_token', secret.tokens.accessToken))
            .ciphertext;
          refreshToken = (await this.vault.seal(companyId, provider, 'refresh_token', secret.tokens.refreshToken))
            .ciphertext;
          expiresAt = new Date(secret.tokens.expiresAt);
          break;
      }
      const now = this.clock.now();
      const rows: ConnectionSqlRow[] = await this.dataSource.query(
        `INSERT INTO provider_connections (company_id, provider, status, external_company_id, external_company_name,
           employee_token, access_token, refresh_token, access_token_expires_at, reauthorization_reason,
           connected_by, connected_at, updated_at)
         VALUES ($1, $2, 'connected', $3, $4, $5, $6, $7, $8, NULL, $9, $10, $10)
         ON CONFLICT (company_id) DO UPDATE SET
           provider = EXCLUDED.provider, status = 'connected',
           external_company_id = EXCLUDED.external_company_id, external_company_name = EXCLUDED.external_company_name,
           employee_token = EXCLUDED.employee_token, access_token = EXCLUDED.access_token,
           refresh_token = EXCLUDED.refresh_token, access_token_expires_at = EXCLUDED.access_token_expires_at,
           reauthorization_reason = NULL, connected_by = EXCLUDED.connected_by,
           connected_at = EXCLUDED.connected_at, updated_at = EXCLUDED.updated_at
         RETURNING ${CONNECTION_COLUMNS}`,
        [
          companyId,
          grant.provider,
          connection.externalCompanyId,
          connection.externalCompanyName,
          bytes(employeeToken),
          bytes(accessToken),
          bytes(refreshToken),
          expiresAt,
          connection.connectedBy,
          now,
        ],
      );
      return toRecord(rows[0]);
    });
  }

  async storedToken(companyId: string, provider: ProviderKind): Promise<string> {
    const rows: Array<{ employee_token: Buffer | null }> = await this.dataSource.query(
      `SELECT employee_token FROM provider_connections
        WHERE company_id = $1 AND provider = $2 AND status = 'connected'`,
      [companyId, provider],
    );
    const sealed = rows[0]?.employee_token;
    if (!sealed) {
      throw new ProviderReauthorizationRequired(provider, `company ${companyId} has no working ${provider} connection`);
    }
    return this.vault.open(companyId, provider, 'employee_token', { ciphertext: sealed });
  }

  async markNeedsReauthorization(companyId: string, reason: string): Promise<void> {
    await this.dataSource.transaction((manager) =>
      markNeedsReauthorization(manager, companyId, reason, this.clock.now(), this.ids),
    );
  }
}

function bytes(value: Uint8Array | null): Buffer | null {
  return value ? Buffer.from(value) : null;
}
