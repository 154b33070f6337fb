import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthorizationRequestStore, isProviderKind, type AuthorizationRequest } from '@app/domain';
import { execute } from '../shared/sql';

interface RequestSqlRow {
  nonce: string;
  company_id: string;
  provider: string;
  actor: string;
  expires_at: Date;
}

/** Pending onboardings in `authorization_requests`; `consume` is one `DELETE … RETURNING`. */
@Injectable()
export class TypeOrmAuthorizationRequestStore extends AuthorizationRequestStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async issue(request: AuthorizationRequest, now: Date): Promise<void> {
    await this.manager.query('DELETE FROM authorization_requests WHERE expires_at < $1', [now]);
    await this.manager.query(
      'INSERT INTO authorization_requests (nonce, company_id, provider, actor, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [request.nonce, request.companyId, request.provider, request.actor, request.expiresAt],
    );
  }

  async consume(nonce: string): Promise<AuthorizationRequest | null> {
    const { rows } = await execute<RequestSqlRow>(
      this.manager,
      'DELETE FROM authorization_requests WHERE nonce = $1 RETURNING nonce, company_id, provider, actor, expires_at',
      [nonce],
    );
    const row = rows[0];
    if (!row || !isProviderKind(row.provider)) return null;
    return {
      nonce: row.nonce,
      companyId: row.company_id,
      provider: row.provider,
      actor: row.actor,
      expiresAt: new Date(row.expires_at),
    };
  }

  async isPending(nonce: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(
      'SELECT 1 FROM authorization_requests WHERE nonce = $1 AND expires_at > $2',
      [nonce, now],
    );
    return rows.length === 1;
  }
}
