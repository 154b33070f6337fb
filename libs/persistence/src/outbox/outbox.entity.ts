import { EntitySchema } from 'typeorm';

/** One row of `notification_outbox` (migration 1763780000005), as @app/notifications documents it. */
export interface OutboxRow {
  id: string;
  companyId: string;
  target: string;
  kind: string;
  payload: unknown;
  attempts: number;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  deadAt: Date | null;
  lastError: string | null;
  createdAt: Date;
}

export const OutboxEntity = new EntitySchema<OutboxRow>({
  name: 'OutboxMessage',
  tableName: 'notification_outbox',
  columns: {
    id: { type: 'text', primary: true },
    companyId: { type: 'text', name: 'company_id' },
    target: { type: 'text' },
    kind: { type: 'text' },
    payload: { type: 'jsonb' },
    attempts: { type: 'int' },
    nextAttemptAt: { type: 'timestamptz', name: 'next_attempt_at' },
    deliveredAt: { type: 'timestamptz', name: 'delivered_at', nullable: true },
    deadAt: { type: 'timestamptz', name: 'dead_at', nullable: true },
    lastError: { type: 'text', name: 'last_error', nullable: true },
    createdAt: { type: 'timestamptz', name: 'created_at' },
  },
});
