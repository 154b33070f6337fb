import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The append-only event store (docs/api.md §4.3, spec §6).
 *
 * - `position` (bigserial) is the global append order: keyset pagination and each company's hash
 *   chain follow it. UNIQUE (correlation_id, sequence) makes a second event at a taken position of
 *   a chain fail (the adapter reports ConcurrencyConflict).
 * - `prev_hash`/`hash` (hex SHA-256) form a tamper-evident chain per company, checked by
 *   `events verify`.
 * - Ids are opaque text (UUIDv7 in production), as the contract defines ids.
 * - `company_id` references companies without cascade: a company with an audit trail cannot be
 *   deleted by accident.
 *
 * Immutability: row triggers refuse UPDATE and DELETE and a statement trigger refuses TRUNCATE,
 * whoever asks. The table's owner (or a superuser) could still disable the triggers (the tests do,
 * to prove that the hash chain catches tampering), so production runs the application under a
 * role that owns nothing and may only read and append to events — today `npm run cli -- db
 * grant-app-role` sets it up, and the service refuses to start as any other; the sketch below is
 * how it began:
 *
 *   -- once, as the role that owns the schema and runs the migrations:
 *   CREATE ROLE accounting_app LOGIN PASSWORD '…';
 *   GRANT USAGE ON SCHEMA public TO accounting_app;
 *   GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO accounting_app;
 *   GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO accounting_app;
 *   -- events: read and append, nothing else (no UPDATE, DELETE, TRUNCATE, TRIGGER)
 *   REVOKE ALL ON events FROM PUBLIC, accounting_app;
 *   GRANT SELECT, INSERT ON events TO accounting_app;
 *   -- tables created by later migrations need their grants too, e.g.:
 *   ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO accounting_app;
 *
 * The application then connects as accounting_app with migrations on boot turned off, and the
 * migrations run separately (CLI) under the owning role.
 */
export class CreateEvents1763780000001 implements MigrationInterface {
  name = 'CreateEvents1763780000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE events (
        position        bigserial NOT NULL,
        id              text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
        company_id      text NOT NULL REFERENCES companies (id),
        correlation_id  text NOT NULL CHECK (length(correlation_id) BETWEEN 1 AND 64),
        sequence        integer NOT NULL CHECK (sequence >= 1),
        type            text NOT NULL CHECK (type IN ('Proposed', 'Approved', 'Rejected', 'Executed',
                          'ExecutionFailed', 'PatternSaved', 'PatternRetired')),
        status          text NULL CHECK (status IN ('PROPOSED', 'APPROVED', 'EXECUTED', 'REJECTED')),
        proposal_id     text NULL,
        actor           text NOT NULL,
        channel         text NOT NULL,
        provider        text NULL,
        api_calls       jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(api_calls) = 'array'),
        confidence      numeric NULL CHECK (confidence BETWEEN 0 AND 1),
        data            jsonb NOT NULL CHECK (jsonb_typeof(data) = 'object'),
        occurred_at     timestamptz NOT NULL,
        recorded_at     timestamptz NOT NULL DEFAULT now(),
        prev_hash       text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
        hash            text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
        CONSTRAINT events_position_key UNIQUE (position),
        CONSTRAINT events_chain_position_key UNIQUE (correlation_id, sequence)
      )`);
    // list(): one company's events in append order, by type, by status, by time; readChain;
    // the status filter's "is there a later event of this proposal" probe; the chain head lookup
    // and `events verify` walk (company_id, position).
    await q.query('CREATE INDEX events_company_position_idx ON events (company_id, position)');
    await q.query('CREATE INDEX events_company_chain_idx ON events (company_id, correlation_id, sequence)');
    await q.query('CREATE INDEX events_company_type_idx ON events (company_id, type, position)');
    await q.query(
      'CREATE INDEX events_company_status_idx ON events (company_id, status, position) WHERE status IS NOT NULL',
    );
    await q.query(
      'CREATE INDEX events_company_proposal_idx ON events (company_id, proposal_id, sequence) WHERE proposal_id IS NOT NULL',
    );
    await q.query('CREATE INDEX events_company_occurred_idx ON events (company_id, occurred_at)');

    await q.query(`
      CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'events are append-only: % on events is refused', TG_OP
          USING ERRCODE = 'insufficient_privilege',
                HINT = 'store a new event instead of changing or removing one';
      END
      $$`);
    await q.query(`
      CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION events_refuse_change()`);
    await q.query(`
      CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE events');
    await q.query('DROP FUNCTION events_refuse_change()');
  }
}
