import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `proposal_heads`: for each proposal in the event log, the sequence and status of its latest
 * event that carries a status. `GET /events?status=` starts from it to find the proposals
 * currently in a status, where it walked every event that ever had that status (docs/performance.md).
 *
 * It is derived from `events` alone: filled here from the events already stored, then kept by a
 * statement trigger on every insert into `events`, whoever inserts (the EventStore, a restore, a
 * bulk load), in the inserting statement's transaction. Of a statement's rows, each proposal's
 * latest becomes its head unless the head is already later.
 */
export class CreateProposalHeads1764190000001 implements MigrationInterface {
  name = 'CreateProposalHeads1764190000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE proposal_heads (
        company_id   text NOT NULL REFERENCES companies (id),
        proposal_id  text NOT NULL,
        sequence     integer NOT NULL,
        status       text NOT NULL,
        PRIMARY KEY (company_id, proposal_id)
      )`);
    await q.query('CREATE INDEX proposal_heads_company_status_idx ON proposal_heads (company_id, status, proposal_id)');
    await q.query(`
      CREATE FUNCTION proposal_heads_follow_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO proposal_heads AS head (company_id, proposal_id, sequence, status)
        SELECT DISTINCT ON (company_id, proposal_id) company_id, proposal_id, sequence, status
          FROM appended WHERE proposal_id IS NOT NULL AND status IS NOT NULL
         ORDER BY company_id, proposal_id, sequence DESC
        ON CONFLICT (company_id, proposal_id) DO UPDATE SET sequence = excluded.sequence, status = excluded.status
         WHERE head.sequence < excluded.sequence;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER events_move_proposal_heads AFTER INSERT ON events
        REFERENCING NEW TABLE AS appended
        FOR EACH STATEMENT EXECUTE FUNCTION proposal_heads_follow_events()`);
    await q.query(`
      INSERT INTO proposal_heads (company_id, proposal_id, sequence, status)
      SELECT DISTINCT ON (company_id, proposal_id) company_id, proposal_id, sequence, status
        FROM events WHERE proposal_id IS NOT NULL AND status IS NOT NULL
       ORDER BY company_id, proposal_id, sequence DESC`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER events_move_proposal_heads ON events');
    await q.query('DROP FUNCTION proposal_heads_follow_events()');
    await q.query('DROP TABLE proposal_heads');
  }
}
