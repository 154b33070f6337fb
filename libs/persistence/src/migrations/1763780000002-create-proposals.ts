import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The proposals' current state (the read model written in the same transaction as their events).
 * `version` is the sequence of the proposal's last event and the optimistic-concurrency version.
 * Money is an integer of minor units; VAT rates are canonical decimal strings.
 */
export class CreateProposals1763780000002 implements MigrationInterface {
  name = 'CreateProposals1763780000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE proposals (
        id                    text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
        company_id            text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        correlation_id        text NOT NULL,
        version               integer NOT NULL CHECK (version >= 1),
        status                text NOT NULL CHECK (status IN ('PROPOSED', 'APPROVED', 'EXECUTED', 'REJECTED')),
        kind                  text NOT NULL,
        merchant              text NOT NULL,
        merchant_key          text NOT NULL,
        amount                bigint NOT NULL CHECK (amount > 0),
        currency              text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        accounting_date       date NOT NULL,
        account_code          text NOT NULL,
        vat_rate              text NOT NULL,
        description           text NULL,
        receipt               jsonb NULL,
        thread                jsonb NULL,
        submitted_by          text NOT NULL,
        channel               text NOT NULL,
        submitted_at          timestamptz NOT NULL,
        updated_at            timestamptz NOT NULL,
        confidence            numeric NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        route                 text NOT NULL CHECK (route IN ('auto_approve', 'review_recommended', 'review_required')),
        reasons               jsonb NOT NULL,
        execute_after         timestamptz NULL,
        resubmission_of       text NULL,
        auto_approved         boolean NOT NULL,
        approved_by           text NULL,
        corrections           jsonb NULL,
        rejected_by           text NULL,
        rejection_reason      text NULL,
        booking_provider      text NULL,
        booking_id            text NULL,
        last_execution_error  text NULL,
        CHECK ((booking_id IS NULL) = (booking_provider IS NULL))
      )`);
    // listByStatus: one company's proposals in a status, oldest submission first (keyset).
    await q.query('CREATE INDEX proposals_company_status_idx ON proposals (company_id, status, submitted_at, id)');
    // listDueForExecution: the executor's queue across companies.
    await q.query('CREATE INDEX proposals_status_execute_after_idx ON proposals (status, execute_after)');
    await q.query('CREATE INDEX proposals_company_correlation_idx ON proposals (company_id, correlation_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE proposals');
  }
}
