import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The application's own tables, written in the same transaction as the proposal they belong to:
 *
 * - `idempotency_keys`: one row per (company, actor, Idempotency-Key) of POST /proposals (docs/api.md
 *   §1). The row is inserted first thing in the request's transaction, so a concurrent request with
 *   the same key blocks on the primary key until the first commits (then replays its response) or
 *   rolls back (then runs itself). `response_body` is `json`, not `jsonb`, so a replay sends the
 *   first response byte for byte (jsonb would reorder its keys). A row whose `expires_at` (created
 *   + 24 h) has passed counts as unused and is overwritten by the next use of its key.
 * - `receipts`: a proposal's receipt file, kept out of the event store (events carry only its
 *   metadata and SHA-256) until the executor attaches it to the booking.
 */
export class CreateIdempotencyKeys1763790000050 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1763790000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        company_id       text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        actor            text NOT NULL,
        idempotency_key  text NOT NULL CHECK (idempotency_key ~ '^[\\x20-\\x7e]{1,255}$'),
        request_hash     text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
        response_status  integer NULL CHECK (response_status BETWEEN 100 AND 599),
        response_body    json NULL,
        created_at       timestamptz NOT NULL,
        expires_at       timestamptz NOT NULL CHECK (expires_at > created_at),
        PRIMARY KEY (company_id, actor, idempotency_key)
      )`);
    // For a purge of expired keys.
    await q.query('CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at)');
    await q.query(`
      CREATE TABLE receipts (
        proposal_id   text PRIMARY KEY REFERENCES proposals (id) ON DELETE CASCADE,
        company_id    text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        filename      text NOT NULL CHECK (length(filename) BETWEEN 1 AND 255),
        content_type  text NOT NULL,
        size_bytes    integer NOT NULL CHECK (size_bytes > 0),
        sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        bytes         bytea NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        CHECK (octet_length(bytes) = size_bytes)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE receipts');
    await q.query('DROP TABLE idempotency_keys');
  }
}
