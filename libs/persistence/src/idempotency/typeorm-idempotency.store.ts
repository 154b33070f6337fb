import type { EntityManager } from 'typeorm';
import {
  IdempotencyStore,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type RecordedResponse,
  type RecordedUse,
} from '@app/application';
import { execute, select } from '../shared/sql';

interface StoredKey {
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
  expires_at: Date;
}

/** The columns of a key row stored with its response, in the order of `completedKeyParameters`. */
export const COMPLETED_KEY_COLUMNS = [
  'company_id',
  'actor',
  'idempotency_key',
  'request_hash',
  'created_at',
  'expires_at',
  'response_status',
  'response_body',
] as const;

/** A key row that records its response as it is claimed (a unit that knows the response before it writes). */
export function completedKeyParameters(record: IdempotencyRecord, response: RecordedResponse): unknown[] {
  const { companyId, actor, key } = record.scope;
  return [
    companyId,
    actor,
    key,
    record.requestHash,
    record.createdAt,
    record.expiresAt,
    response.status,
    JSON.stringify(response.body),
  ];
}

/**
 * What the key's row recorded for `record`: `replay` when it is the same request, `conflict` when it
 * is another one; null when the key has no row or its row has expired (at `record.createdAt`).
 */
export async function recordedUse(manager: EntityManager, record: IdempotencyRecord): Promise<RecordedUse | null> {
  const { companyId, actor, key } = record.scope;
  const [stored] = await select<StoredKey>(
    manager,
    `SELECT request_hash, response_status, response_body, expires_at FROM idempotency_keys
      WHERE company_id = $1 AND actor = $2 AND idempotency_key = $3`,
    [companyId, actor, key],
  );
  if (!stored || stored.expires_at.getTime() <= record.createdAt.getTime()) return null;
  // A committed row always carries its response: key and response are written in one transaction.
  if (stored.request_hash !== record.requestHash || stored.response_status === null) return { outcome: 'conflict' };
  return { outcome: 'replay', response: { status: stored.response_status, body: stored.response_body } };
}

/**
 * IdempotencyStore over `idempotency_keys`, bound to one unit of work's transaction (or, for the
 * purge, to the data source's manager).
 *
 * `claim` inserts the key row first. The primary key is what serialises two requests with one key:
 * the second INSERT waits on the first's uncommitted row; when the first commits, ON CONFLICT finds
 * its row unexpired and leaves it, and the second reads the recorded response (replay or conflict);
 * when the first rolls back, the second's INSERT goes through and it runs the request itself. An
 * expired row is taken over by the same statement (DO UPDATE … WHERE expired).
 */
export class TypeOrmIdempotencyStore extends IdempotencyStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async claim(record: IdempotencyRecord): Promise<IdempotencyClaim> {
    const { companyId, actor, key } = record.scope;
    const { rows } = await execute(
      this.manager,
      `INSERT INTO idempotency_keys (company_id, actor, idempotency_key, request_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (company_id, actor, idempotency_key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
             response_status = NULL, response_body = NULL
         WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
       RETURNING 1 AS claimed`,
      [companyId, actor, key, record.requestHash, record.createdAt, record.expiresAt],
    );
    if (rows.length === 1) return { outcome: 'claimed' };

    // Not claimed: the key's row is live (unexpired), so what it recorded answers this request.
    return (await recordedUse(this.manager, record)) ?? { outcome: 'conflict' };
  }

  async complete(record: IdempotencyRecord, response: RecordedResponse): Promise<void> {
    const { companyId, actor, key } = record.scope;
    const { affected } = await execute(
      this.manager,
      `UPDATE idempotency_keys SET response_status = $5, response_body = $6
        WHERE company_id = $1 AND actor = $2 AND idempotency_key = $3 AND request_hash = $4`,
      [companyId, actor, key, record.requestHash, response.status, JSON.stringify(response.body)],
    );
    if (affected !== 1) throw new Error(`idempotency key "${key}" was not claimed in this unit of work`);
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    // On the expires_at index; SKIP LOCKED leaves a key a request is taking over to that request.
    const { affected } = await execute(
      this.manager,
      `DELETE FROM idempotency_keys k
        USING (SELECT company_id, actor, idempotency_key FROM idempotency_keys
                WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED) expired
        WHERE k.company_id = expired.company_id AND k.actor = expired.actor AND k.idempotency_key = expired.idempotency_key`,
      [now, limit],
    );
    return affected;
  }
}
