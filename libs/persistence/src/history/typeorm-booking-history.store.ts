import type { EntityManager } from 'typeorm';
import { BookingHistoryStore, type HistoricalBooking, type HistoryImport, type HistoryImportStatus } from '@app/domain';
import { select } from '../shared/sql';
import { BOOKING_SELECT, bookingOf, type BookingRecord } from './provider-bookings';

interface ImportRecord {
  company_id: string;
  provider: string;
  period_from: string;
  period_to: string;
  status: HistoryImportStatus;
  cursor: string | null;
  bookings_read: number;
  pages_read: number;
  started_by: string;
  started_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  error: string | null;
}

const IMPORT_SELECT = `company_id, provider, to_char(period_from, 'YYYY-MM-DD') AS period_from,
  to_char(period_to, 'YYYY-MM-DD') AS period_to, status, cursor, bookings_read, pages_read, started_by, started_at,
  updated_at, finished_at, error`;

const BOOKING_COLUMNS = 10;

/** BookingHistoryStore over `provider_bookings` and `history_imports` (migration 1764230000001). */
export class TypeOrmBookingHistoryStore extends BookingHistoryStore {
  constructor(private readonly manager: EntityManager) {
    super();
  }

  async savePage(bookings: readonly HistoricalBooking[], state: HistoryImport): Promise<void> {
    await this.manager.transaction(async (manager) => {
      if (bookings.length > 0) {
        const rows = bookings
          .map(
            (_, i) =>
              `(${Array.from({ length: BOOKING_COLUMNS }, (__, j) => `$${i * BOOKING_COLUMNS + j + 1}`).join(', ')})`,
          )
          .join(', ');
        await manager.query(
          `INSERT INTO provider_bookings
             (company_id, provider, booking_id, kind, booking_date, merchant, account_code, vat_rate, amount, imported_at)
           VALUES ${rows}
           ON CONFLICT (company_id, provider, booking_id) DO UPDATE SET
             kind = EXCLUDED.kind, booking_date = EXCLUDED.booking_date, merchant = EXCLUDED.merchant,
             account_code = EXCLUDED.account_code, vat_rate = EXCLUDED.vat_rate, amount = EXCLUDED.amount,
             imported_at = EXCLUDED.imported_at`,
          bookings.flatMap((b) => [
            state.companyId,
            b.provider,
            b.bookingId,
            b.kind,
            b.date,
            b.merchant,
            b.accountCode,
            b.vatRate,
            b.amount,
            state.updatedAt,
          ]),
        );
      }
      await new TypeOrmBookingHistoryStore(manager).saveImport(state);
    });
  }

  async saveImport(state: HistoryImport): Promise<void> {
    await this.manager.query(
      `INSERT INTO history_imports (company_id, provider, period_from, period_to, status, cursor, bookings_read,
         pages_read, started_by, started_at, updated_at, finished_at, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (company_id) DO UPDATE SET
         provider = EXCLUDED.provider, period_from = EXCLUDED.period_from, period_to = EXCLUDED.period_to,
         status = EXCLUDED.status, cursor = EXCLUDED.cursor, bookings_read = EXCLUDED.bookings_read,
         pages_read = EXCLUDED.pages_read, started_by = EXCLUDED.started_by, started_at = EXCLUDED.started_at,
         updated_at = EXCLUDED.updated_at, finished_at = EXCLUDED.finished_at, error = EXCLUDED.error`,
      [
        state.companyId,
        state.provider,
        state.periodFrom,
        state.periodTo,
        state.status,
        state.cursor,
        state.bookingsRead,
        state.pagesRead,
        state.startedBy,
        state.startedAt,
        state.updatedAt,
        state.finishedAt,
        state.error,
      ],
    );
  }

  async findImport(companyId: string): Promise<HistoryImport | null> {
    const [row] = await select<ImportRecord>(
      this.manager,
      `SELECT ${IMPORT_SELECT} FROM history_imports WHERE company_id = $1`,
      [companyId],
    );
    if (!row) return null;
    return {
      companyId: row.company_id,
      provider: row.provider,
      periodFrom: row.period_from,
      periodTo: row.period_to,
      status: row.status,
      cursor: row.cursor,
      bookingsRead: row.bookings_read,
      pagesRead: row.pages_read,
      startedBy: row.started_by,
      startedAt: row.started_at,
      updatedAt: row.updated_at,
      finishedAt: row.finished_at,
      error: row.error,
    };
  }

  async bookingsSince(companyId: string, from: string): Promise<HistoricalBooking[]> {
    const rows = await select<BookingRecord>(
      this.manager,
      `SELECT ${BOOKING_SELECT} FROM provider_bookings
        WHERE company_id = $1 AND booking_date >= $2 ORDER BY booking_date, provider, booking_id`,
      [companyId, from],
    );
    return rows.map(bookingOf);
  }
}
