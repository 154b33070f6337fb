import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys the event hash chain with a secret the database does not hold.
 *
 * Until now a link was `sha256(prev_hash ‖ canonical event)`: the owner of the tables (or anyone
 * who can switch the immutability triggers off) could rewrite an event and recompute every hash
 * after it. From here on a link is `HMAC-SHA256(chain key, prev_hash ‖ canonical event)`, the chain
 * key being a random 256-bit key that is stored only wrapped by the KMS (KEK_SOURCE), like the
 * companies' DEKs. See EventChainKeys, EventSealer and EventChainVerifier.
 *
 * - `event_seals.key_version`: 0 for the links sealed before this migration (they keep their
 *   SHA-256 hashes, so every hash ever printed stays valid), else the version of the chain key
 *   that keyed the link. The default is dropped once the existing rows have it, so a sealer of an
 *   older release can no longer add unkeyed links: its INSERT fails until it is replaced.
 * - `event_chain_keys`: each chain key version, wrapped (`kek_id` names the KEK, as in
 *   `company_keys`). A re-wrap under a new KEK updates `wrapped_key`; a row is never deleted.
 * - `event_chain_anchors`: when the first chain key is created, each company that has unkeyed links
 *   gets an anchor: the count of those links, the last one's hash, and an HMAC of both under the
 *   chain key. An unkeyed chain is then only accepted exactly as anchored, so nobody can re-seal a
 *   rewritten history with unkeyed links either. Append-only.
 *
 * The application role may SELECT and INSERT the anchors and the seals, and SELECT, INSERT and
 * UPDATE the keys (`npm run cli -- db grant-app-role`).
 */
export class KeyEventChain1764153700001 implements MigrationInterface {
  name = 'KeyEventChain1764153700001';

  async up(q: QueryRunner): Promise<void> {
    // DDL: the seals' immutability triggers refuse DML only, and the default fills existing rows
    // without rewriting them.
    await q.query('ALTER TABLE event_seals ADD COLUMN key_version integer NOT NULL DEFAULT 0 CHECK (key_version >= 0)');
    await q.query('ALTER TABLE event_seals ALTER COLUMN key_version DROP DEFAULT');

    await q.query(`
      CREATE TABLE event_chain_keys (
        version      integer PRIMARY KEY CHECK (version >= 1),
        wrapped_key  bytea NOT NULL CHECK (length(wrapped_key) > 0),
        kek_id       text NOT NULL CHECK (length(kek_id) BETWEEN 1 AND 200),
        created_at   timestamptz NOT NULL DEFAULT now(),
        rotated_at   timestamptz NULL
      )`);
    await q.query(`
      CREATE TRIGGER event_chain_keys_refuse_delete BEFORE DELETE ON event_chain_keys
        FOR EACH ROW EXECUTE FUNCTION append_only_refuse_change()`);
    await q.query(`
      CREATE TRIGGER event_chain_keys_refuse_truncate BEFORE TRUNCATE ON event_chain_keys
        FOR EACH STATEMENT EXECUTE FUNCTION append_only_refuse_change()`);

    await q.query(`
      CREATE TABLE event_chain_anchors (
        company_id   text PRIMARY KEY REFERENCES companies (id),
        chain_index  bigint NOT NULL CHECK (chain_index >= 1),
        hash         text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
        key_version  integer NOT NULL REFERENCES event_chain_keys (version),
        mac          text NOT NULL CHECK (mac ~ '^[0-9a-f]{64}$'),
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TRIGGER event_chain_anchors_refuse_update_delete BEFORE UPDATE OR DELETE ON event_chain_anchors
        FOR EACH ROW EXECUTE FUNCTION append_only_refuse_change()`);
    await q.query(`
      CREATE TRIGGER event_chain_anchors_refuse_truncate BEFORE TRUNCATE ON event_chain_anchors
        FOR EACH STATEMENT EXECUTE FUNCTION append_only_refuse_change()`);
  }

  /** Keyed links cannot be checked by the code before this migration: stepping back is for development only. */
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE event_chain_anchors');
    await q.query('DROP TABLE event_chain_keys');
    await q.query('ALTER TABLE event_seals DROP COLUMN key_version');
  }
}
