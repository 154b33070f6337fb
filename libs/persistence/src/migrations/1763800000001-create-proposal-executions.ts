import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The executor's durable state, one row per approved proposal that came due (docs/api.md §4.4):
 *
 * - `state`: pending → in_flight (claimed; `next_attempt_at` is the lease's end) → executed, or
 *   retry_wait (a transient failure; `next_attempt_at` is the next try) → in_flight …, or failed
 *   (permanent: no automatic retry; the proposal stays APPROVED).
 * - `may_be_booked`: an attempt ended without knowing whether the provider created the booking
 *   (timeout, dropped connection, 5xx) or with a booking whose receipt is still missing.
 *
 * The trigger `proposals_reject_guard` makes a reject that races the executor end one way only:
 * while an execution is in flight, may have booked, or executed, an UPDATE of an APPROVED proposal
 * to REJECTED changes nothing, which the proposal repository's version check reports as
 * ConcurrencyConflict (409 invalid_transition). The claim locks the proposal row too, so a reject
 * either commits before the claim (and the claim no longer finds it APPROVED) or waits for the
 * claim to commit and then sees the in-flight execution.
 */
export class CreateProposalExecutions1763800000001 implements MigrationInterface {
  name = 'CreateProposalExecutions1763800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE proposal_executions (
        proposal_id       text PRIMARY KEY REFERENCES proposals (id) ON DELETE CASCADE,
        company_id        text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        state             text NOT NULL CHECK (state IN ('pending', 'in_flight', 'retry_wait', 'failed', 'executed')),
        attempts          integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at   timestamptz NULL,
        claim_token       text NULL,
        claimed_by        text NULL,
        may_be_booked     boolean NOT NULL DEFAULT false,
        booking_id        text NULL,
        failure_reported  boolean NOT NULL DEFAULT false,
        last_error        text NULL,
        created_at        timestamptz NOT NULL,
        updated_at        timestamptz NOT NULL,
        CHECK ((state IN ('pending', 'in_flight', 'retry_wait')) = (next_attempt_at IS NOT NULL))
      )`);
    await q.query(
      `CREATE INDEX proposal_executions_due_idx ON proposal_executions (next_attempt_at)
        WHERE state IN ('pending', 'in_flight', 'retry_wait')`,
    );
    await q.query(`
      CREATE FUNCTION proposals_refuse_reject_during_execution() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (
          SELECT 1 FROM proposal_executions e
           WHERE e.proposal_id = NEW.id
             AND (e.state IN ('in_flight', 'executed') OR (e.state = 'retry_wait' AND e.may_be_booked))
        ) THEN
          RETURN NULL;
        END IF;
        RETURN NEW;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER proposals_reject_guard
        BEFORE UPDATE OF status ON proposals
        FOR EACH ROW
        WHEN (OLD.status = 'APPROVED' AND NEW.status = 'REJECTED')
        EXECUTE FUNCTION proposals_refuse_reject_during_execution()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER proposals_reject_guard ON proposals');
    await q.query('DROP FUNCTION proposals_refuse_reject_during_execution()');
    await q.query('DROP TABLE proposal_executions');
  }
}
