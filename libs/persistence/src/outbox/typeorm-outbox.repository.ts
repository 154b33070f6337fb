import type { EntityManager } from 'typeorm';
import {
  OutboxRepository,
  type Delivery,
  type HeldClaim,
  type NewOutboxMessage,
  type OutboxMessage,
} from '@app/notifications';
import { execute, insertInto, select } from '../shared/sql';

interface OutboxRecord {
  id: string;
  company_id: string;
  target: string;
  kind: string;
  payload: unknown;
  attempts: number;
  next_attempt_at: Date;
  delivered_at: Date | null;
  dead_at: Date | null;
  last_error: string | null;
  created_at: Date;
}

const COLUMNS =
  'id, company_id, target, kind, payload, attempts, next_attempt_at, delivered_at, dead_at, last_error, created_at';
const PENDING = 'delivered_at IS NULL AND dead_at IS NULL';

/** The columns a new message's row is inserted with, in the order of `outboxParameters`. */
export const OUTBOX_INSERT_COLUMNS = [
  'id',
  'company_id',
  'target',
  'kind',
  'payload',
  'attempts',
  'next_attempt_at',
  'created_at',
] as const;

export function outboxParameters(m: NewOutboxMessage): unknown[] {
  return [
    m.id,
    m.companyId,
    m.target,
    m.kind,
    JSON.stringify(m.payload),
    0,
    m.nextAttemptAt ?? m.createdAt,
    m.createdAt,
  ];
}

function fromRecord(row: OutboxRecord): OutboxMessage {
  return {
    id: row.id,
    companyId: row.company_id,
    target: row.target,
    kind: row.kind,
    payload: row.payload,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
    deadAt: row.dead_at,
    lastError: row.last_error,
    createdAt: row.created_at,
  } as OutboxMessage;
}

/**
 * The OutboxRepository over `notification_outbox`, exactly as the port documents it:
 * `enqueue` joins the manager's transaction (a unit of work's, so rows commit with their events)
 * and ignores known ids; `claimDue` leases due rows in one `UPDATE … RETURNING` whose subquery
 * locks them `FOR UPDATE SKIP LOCKED`, so concurrent dispatchers get disjoint rows; outcomes are
 * fenced by the attempt number the claim returned. Nothing is ever deleted.
 */
export class TypeOrmOutboxRepository extends OutboxRepository {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  override async enqueue(messages: readonly NewOutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.manager.query(
      `${insertInto('notification_outbox', OUTBOX_INSERT_COLUMNS, messages.length)} ON CONFLICT (id) DO NOTHING`,
      messages.flatMap(outboxParameters),
    );
  }

  override async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<OutboxMessage[]> {
    if (limit <= 0) return [];
    const { rows } = await execute<OutboxRecord>(
      this.manager,
      `UPDATE notification_outbox o SET attempts = o.attempts + 1, next_attempt_at = $3
        WHERE o.id IN (SELECT id FROM notification_outbox
                        WHERE ${PENDING} AND next_attempt_at <= $1
                        ORDER BY next_attempt_at, created_at, id
                        LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING ${COLUMNS.split(', ')
          .map((c) => `o.${c}`)
          .join(', ')}`,
      [now, limit, leaseUntil],
    );
    // RETURNING gives no order; the port promises the claim order.
    return rows
      .map(fromRecord)
      .sort(
        (a, b) =>
          a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() ||
          a.createdAt.getTime() - b.createdAt.getTime() ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
  }

  override async renew(claims: readonly HeldClaim[], leaseUntil: Date): Promise<number> {
    if (claims.length === 0) return 0;
    const { affected } = await execute(
      this.manager,
      `UPDATE notification_outbox o SET next_attempt_at = $1
         FROM unnest($2::text[], $3::int[]) AS held (id, attempts)
        WHERE o.id = held.id AND o.attempts = held.attempts AND o.delivered_at IS NULL AND o.dead_at IS NULL`,
      [leaseUntil, claims.map((c) => c.id), claims.map((c) => c.attempt)],
    );
    return affected;
  }

  override async markDelivered(deliveries: readonly Delivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.manager.query(
      `UPDATE notification_outbox o SET delivered_at = d.at
         FROM unnest($1::text[], $2::timestamptz[]) AS d(id, at)
        WHERE o.id = d.id AND o.delivered_at IS NULL`,
      [deliveries.map((d) => d.id), deliveries.map((d) => d.at)],
    );
  }

  override async markFailed(id: string, attempt: number, error: string, nextAttemptAt: Date): Promise<boolean> {
    const { affected } = await execute(
      this.manager,
      `UPDATE notification_outbox SET last_error = $3, next_attempt_at = $4
        WHERE id = $1 AND attempts = $2 AND ${PENDING}`,
      [id, attempt, error, nextAttemptAt],
    );
    return affected === 1;
  }

  override async markDead(id: string, attempt: number, error: string, at: Date): Promise<boolean> {
    const { affected } = await execute(
      this.manager,
      `UPDATE notification_outbox SET last_error = $3, dead_at = $4
        WHERE id = $1 AND attempts = $2 AND ${PENDING}`,
      [id, attempt, error, at],
    );
    return affected === 1;
  }

  override async listRecent(companyId: string, limit: number): Promise<OutboxMessage[]> {
    const rows = await select<OutboxRecord>(
      this.manager,
      `SELECT ${COLUMNS} FROM notification_outbox WHERE company_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [companyId, Math.max(0, limit)],
    );
    return rows.map(fromRecord);
  }

  override async findDead(limit: number): Promise<OutboxMessage[]> {
    const rows = await select<OutboxRecord>(
      this.manager,
      `SELECT ${COLUMNS} FROM notification_outbox
        WHERE delivered_at IS NULL AND dead_at IS NOT NULL ORDER BY dead_at DESC, id LIMIT $1`,
      [Math.max(0, limit)],
    );
    return rows.map(fromRecord);
  }

  override async requeue(id: string, at: Date): Promise<boolean> {
    const { affected } = await execute(
      this.manager,
      `UPDATE notification_outbox SET dead_at = NULL, next_attempt_at = $2, attempts = 0
        WHERE id = $1 AND delivered_at IS NULL AND dead_at IS NOT NULL`,
      [id, at],
    );
    return affected === 1;
  }
}
