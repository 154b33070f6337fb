import { EntityManager } from 'typeorm';
import { ConsoleSessionStore, isPermission, isRole, type ConsoleGrant, type ConsoleLinkRejection } from '@app/domain';
import { execute, select } from '../shared/sql';

interface GrantRow {
  digest: string;
  company_id: string;
  actor: string;
  role: string;
  permissions: string[];
  created_at: Date;
  expires_at: Date;
  used_at?: Date | null;
}

const COLUMNS = 'digest, company_id, actor, role, permissions, created_at, expires_at';
/** Used links are kept this long after expiry, so that a second opening is told "used". */
const USED_LINK_RETENTION_MS = 24 * 60 * 60 * 1000;

function toGrant(row: GrantRow): ConsoleGrant | null {
  if (!isRole(row.role) || !row.permissions.every(isPermission)) return null;
  return {
    digest: row.digest,
    companyId: row.company_id,
    actor: row.actor,
    role: row.role,
    permissions: row.permissions.filter(isPermission),
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}

function values(grant: ConsoleGrant): unknown[] {
  return [
    grant.digest,
    grant.companyId,
    grant.actor,
    grant.role,
    [...grant.permissions],
    grant.createdAt,
    grant.expiresAt,
  ];
}

/** Console links and sessions in `console_links` / `console_sessions`; a link is redeemed by one UPDATE. */
export class TypeOrmConsoleSessionStore extends ConsoleSessionStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async saveLink(link: ConsoleGrant): Promise<void> {
    await this.manager.query('DELETE FROM console_links WHERE expires_at < $1', [
      new Date(link.createdAt.getTime() - USED_LINK_RETENTION_MS),
    ]);
    await this.manager.query(
      `INSERT INTO console_links (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      values(link),
    );
  }

  async redeemLink(digest: string, now: Date): Promise<ConsoleGrant | ConsoleLinkRejection> {
    const { rows } = await execute<GrantRow>(
      this.manager,
      `UPDATE console_links SET used_at = $2 WHERE digest = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING ${COLUMNS}`,
      [digest, now],
    );
    const redeemed = rows[0] ? toGrant(rows[0]) : null;
    if (redeemed) return redeemed;
    const [found] = await select<GrantRow>(this.manager, 'SELECT used_at FROM console_links WHERE digest = $1', [
      digest,
    ]);
    if (!found) return 'unknown';
    return found.used_at ? 'used' : 'expired';
  }

  async findLink(digest: string, now: Date): Promise<ConsoleGrant | ConsoleLinkRejection> {
    const [row] = await select<GrantRow>(
      this.manager,
      `SELECT ${COLUMNS}, used_at FROM console_links WHERE digest = $1`,
      [digest],
    );
    if (!row) return 'unknown';
    if (row.used_at) return 'used';
    if (new Date(row.expires_at).getTime() <= now.getTime()) return 'expired';
    return toGrant(row) ?? 'unknown';
  }

  async startSession(session: ConsoleGrant): Promise<void> {
    await this.manager.query('DELETE FROM console_sessions WHERE expires_at < $1', [session.createdAt]);
    await this.manager.query(
      `INSERT INTO console_sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      values(session),
    );
  }

  async findSession(digest: string, now: Date): Promise<ConsoleGrant | null> {
    const [row] = await select<GrantRow>(
      this.manager,
      `SELECT ${COLUMNS} FROM console_sessions WHERE digest = $1 AND expires_at > $2`,
      [digest, now],
    );
    return row ? toGrant(row) : null;
  }

  async endSession(digest: string): Promise<void> {
    await this.manager.query('DELETE FROM console_sessions WHERE digest = $1', [digest]);
  }

  async endCompanySessions(companyId: string): Promise<number> {
    const sessions = await execute(this.manager, 'DELETE FROM console_sessions WHERE company_id = $1', [companyId]);
    await this.manager.query('DELETE FROM console_links WHERE company_id = $1', [companyId]);
    return sessions.affected;
  }
}
