import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Moves each company's tamper-evident hash chain off the hot path: events are appended without a
 * hash, and a background sealer (EventSealer) chains them afterwards into `event_seals`.
 *
 * Before, `append` took a per-company advisory lock and read the company's previous hash inside
 * the caller's transaction, so every write of one company was serialised until its unit of work
 * committed. Now `append` is a plain INSERT, and the chain lock is held only by the sealer, for one
 * short transaction per company and batch.
 *
 * - `event_seals`: one row per sealed event. `chain_index` is the event's place in its company's
 *   chain (1, 2, 3, … in the order the sealer sealed them; that is the chain order, not
 *   `events.position`, so an event committed late with a lower position is simply sealed in a
 *   later batch). `prev_hash` is the previous seal's `hash` (64 zeros for chain index 1) and
 *   `hash = sha256(prev_hash ‖ canonical JSON of the event)`, exactly as events stored it before.
 *   UNIQUE (event_id) seals an event at most once; the primary key (company_id, chain_index)
 *   keeps a chain from forking even if two sealers ignored the lock.
 * - The existing chains are carried over unchanged: chain_index follows the old position order,
 *   prev_hash and hash are copied, so every hash ever printed stays valid. Then
 *   `events.prev_hash` and `events.hash` are dropped (DDL; the immutability triggers refuse DML
 *   only).
 * - `events.inserted_xid` (xid8, set by default to the inserting transaction's id) lets the sealer
 *   find new events cheaply: after a complete pass it only looks at events whose transaction id is
 *   at least the oldest transaction that was still running when that pass began (see
 *   EventSealer). Rows appended before this migration keep NULL there: they are all sealed here.
 *
 * Immutability as for events: a row trigger refuses UPDATE and DELETE of seals, a statement
 * trigger refuses TRUNCATE, and production grants the application role read and append only:
 *
 *   REVOKE ALL ON event_seals FROM PUBLIC, accounting_app;
 *   GRANT SELECT, INSERT ON event_seals TO accounting_app;
 *
 * (see 1763780000001-create-events for the whole role set-up). Removing a company's newest seals
 * lets the sealer seal those events again, with the same hashes as long as the events are
 * unchanged; that the role cannot DELETE is what stops a rewrite of the newest events.
 */
export class SealEventsAsynchronously1763780000007 implements MigrationInterface {
  name = 'SealEventsAsynchronously1763780000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_seals (
        company_id   text NOT NULL REFERENCES companies (id),
        chain_index  bigint NOT NULL CHECK (chain_index >= 1),
        event_id     text NOT NULL REFERENCES events (id),
        prev_hash    text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
        hash         text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
        sealed_at    timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT event_seals_pkey PRIMARY KEY (company_id, chain_index),
        CONSTRAINT event_seals_event_key UNIQUE (event_id)
      )`);
    await q.query(`
      INSERT INTO event_seals (company_id, chain_index, event_id, prev_hash, hash, sealed_at)
      SELECT company_id, row_number() OVER (PARTITION BY company_id ORDER BY position), id, prev_hash, hash, recorded_at
        FROM events`);
    await q.query('ALTER TABLE events DROP COLUMN prev_hash, DROP COLUMN hash');

    // Added without a default first, so existing rows stay NULL and the table is not rewritten;
    // the default then applies to new rows only.
    await q.query('ALTER TABLE events ADD COLUMN inserted_xid xid8 NULL');
    await q.query('ALTER TABLE events ALTER COLUMN inserted_xid SET DEFAULT pg_current_xact_id()');
    // The sealer's incremental scan: events inserted by transactions from a given id on.
    await q.query('CREATE INDEX events_inserted_xid_idx ON events (inserted_xid)');

    // The events' trigger function names the events table in its message; this one names
    // whichever append-only table it guards.
    await q.query(`
      CREATE FUNCTION append_only_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: % on % is refused', TG_TABLE_NAME, TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'insufficient_privilege',
                HINT = 'seals are only ever added, by the event sealer';
      END
      $$`);
    await q.query(`
      CREATE TRIGGER event_seals_refuse_update_delete BEFORE UPDATE OR DELETE ON event_seals
        FOR EACH ROW EXECUTE FUNCTION append_only_refuse_change()`);
    await q.query(`
      CREATE TRIGGER event_seals_refuse_truncate BEFORE TRUNCATE ON event_seals
        FOR EACH STATEMENT EXECUTE FUNCTION append_only_refuse_change()`);
  }

  /**
   * Puts the hashes back on the events (nullable: events never sealed get none). The code before
   * this migration walks the chain in position order, so it reports a break wherever the sealer
   * sealed out of position order; good enough to step back in development.
   */
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE events ADD COLUMN prev_hash text NULL, ADD COLUMN hash text NULL');
    await q.query('ALTER TABLE events DISABLE TRIGGER events_refuse_update_delete');
    await q.query(`
      UPDATE events e SET prev_hash = s.prev_hash, hash = s.hash FROM event_seals s WHERE s.event_id = e.id`);
    await q.query('ALTER TABLE events ENABLE TRIGGER events_refuse_update_delete');
    await q.query('DROP TABLE event_seals');
    await q.query('DROP FUNCTION append_only_refuse_change()');
    await q.query('DROP INDEX events_inserted_xid_idx');
    await q.query('ALTER TABLE events DROP COLUMN inserted_xid');
  }
}
