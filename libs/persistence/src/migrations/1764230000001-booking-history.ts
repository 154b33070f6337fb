import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Learning from the company's books:
 *
 * - `provider_bookings`: the expense bookings the history import read from the provider (one row
 *   per booking, upserted, so reading a page twice changes nothing); read again to derive
 *   suggestions and to find a new proposal's possible duplicates already in the books.
 * - `history_imports`: per company, the import's period, where it stands (the provider's cursor
 *   after the last page stored) and how far it got, so that an interrupted import resumes.
 * - `patterns.history`: the evidence behind a pattern the import suggested (null otherwise).
 */
export class BookingHistory1764230000001 implements MigrationInterface {
  name = 'BookingHistory1764230000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_bookings (
        company_id    text NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        provider      text NOT NULL,
        booking_id    text NOT NULL,
        kind          text NOT NULL CHECK (kind IN ('voucher', 'supplier_invoice', 'purchase')),
        booking_date  date NOT NULL,
        merchant      text NOT NULL,
        account_code  text NOT NULL,
        vat_rate      text NOT NULL,
        amount        bigint NOT NULL CHECK (amount > 0),
        imported_at   timestamptz NOT NULL,
        PRIMARY KEY (company_id, provider, booking_id)
      )`);
    await q.query(
      'CREATE INDEX provider_bookings_duplicate_idx ON provider_bookings (company_id, amount, booking_date)',
    );
    await q.query('CREATE INDEX provider_bookings_date_idx ON provider_bookings (company_id, booking_date)');
    await q.query(`
      CREATE TABLE history_imports (
        company_id     text PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
        provider       text NOT NULL,
        period_from    date NOT NULL,
        period_to      date NOT NULL,
        status         text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        cursor         text NULL,
        bookings_read  integer NOT NULL DEFAULT 0,
        pages_read     integer NOT NULL DEFAULT 0,
        started_by     text NOT NULL,
        started_at     timestamptz NOT NULL,
        updated_at     timestamptz NOT NULL,
        finished_at    timestamptz NULL,
        error          text NULL
      )`);
    await q.query('ALTER TABLE patterns ADD COLUMN history jsonb NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE patterns DROP COLUMN history');
    await q.query('DROP TABLE history_imports');
    await q.query('DROP TABLE provider_bookings');
  }
}
