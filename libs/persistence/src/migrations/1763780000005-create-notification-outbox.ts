import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The durable notification outbox (@app/notifications, OutboxRepository's documented schema).
 * Rows are written in the producer's transaction and delivered at least once afterwards.
 * `company_id` has no foreign key: a row is a delivery record that may name a company the
 * message is about, and it must never block or be lost with a company change.
 */
export class CreateNotificationOutbox1763780000005 implements MigrationInterface {
  name = 'CreateNotificationOutbox1763780000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notification_outbox (
        id               text PRIMARY KEY,
        company_id       text NOT NULL,
        target           text NOT NULL CHECK (target IN ('review', 'user_thread', 'invoices')),
        kind             text NOT NULL,
        payload          jsonb NOT NULL,
        attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at  timestamptz NOT NULL,
        delivered_at     timestamptz NULL,
        dead_at          timestamptz NULL,
        last_error       text NULL,
        created_at       timestamptz NOT NULL
      )`);
    // The dispatcher's claim: pending rows by due time.
    await q.query(`
      CREATE INDEX notification_outbox_due_idx ON notification_outbox (next_attempt_at, created_at, id)
        WHERE delivered_at IS NULL AND dead_at IS NULL`);
    // Operators' dead-letter list.
    await q.query(
      'CREATE INDEX notification_outbox_dead_idx ON notification_outbox (dead_at) WHERE dead_at IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE notification_outbox');
  }
}
