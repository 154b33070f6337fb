import type { HistoricalBooking } from '../history/booking-history';
import type { AccountingDate } from '../values/accounting-date';

export type HistoryImportStatus = 'running' | 'done' | 'failed';

/** Where a company's history import stands: what it reads, how far it got, how it ended. */
export interface HistoryImport {
  readonly companyId: string;
  readonly provider: string;
  readonly periodFrom: AccountingDate;
  readonly periodTo: AccountingDate;
  readonly status: HistoryImportStatus;
  /** The provider's cursor after the last page stored; null before the first page and once done. */
  readonly cursor: string | null;
  readonly bookingsRead: number;
  readonly pagesRead: number;
  readonly startedBy: string;
  readonly startedAt: Date;
  readonly updatedAt: Date;
  readonly finishedAt: Date | null;
  /** Why the last run stopped, when it failed. */
  readonly error: string | null;
}

/** How many near bookings a submission reads at most (SubmissionReads). */
export const NEAR_BOOKINGS_LIMIT = 20;

/**
 * The expense bookings read from the company's provider, and the state of the import that reads
 * them. Scoped by company. Bookings are upserted by (provider, bookingId): storing a page again
 * changes nothing, which is what makes a resumed import safe.
 */
export abstract class BookingHistoryStore {
  /** Stores a page of bookings and the import's new state together (one transaction). */
  abstract savePage(bookings: readonly HistoricalBooking[], state: HistoryImport): Promise<void>;

  abstract saveImport(state: HistoryImport): Promise<void>;

  abstract findImport(companyId: string): Promise<HistoryImport | null>;

  /** Every booking dated on or after `from`, oldest first: what suggestions are derived from. */
  abstract bookingsSince(companyId: string, from: AccountingDate): Promise<HistoricalBooking[]>;
}
