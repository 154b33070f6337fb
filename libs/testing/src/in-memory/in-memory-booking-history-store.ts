import { BookingHistoryStore, NEAR_BOOKINGS_LIMIT, type HistoricalBooking, type HistoryImport } from '@app/domain';

/** BookingHistoryStore in maps. Same contract as the TypeORM adapter (booking-history-store.contract.ts). */
export class InMemoryBookingHistoryStore extends BookingHistoryStore {
  private readonly bookings = new Map<string, { companyId: string; booking: HistoricalBooking }>();
  private readonly imports = new Map<string, HistoryImport>();

  async savePage(bookings: readonly HistoricalBooking[], state: HistoryImport): Promise<void> {
    for (const booking of bookings) {
      this.bookings.set(`${state.companyId}\u0000${booking.provider}\u0000${booking.bookingId}`, {
        companyId: state.companyId,
        booking: { ...booking },
      });
    }
    await this.saveImport(state);
  }

  async saveImport(state: HistoryImport): Promise<void> {
    this.imports.set(state.companyId, { ...state });
  }

  async findImport(companyId: string): Promise<HistoryImport | null> {
    const state = this.imports.get(companyId);
    return state ? { ...state } : null;
  }

  async bookingsSince(companyId: string, from: string): Promise<HistoricalBooking[]> {
    return this.of(companyId).filter((b) => b.date >= from);
  }

  /** A submission's possible duplicates among the bookings (InMemorySubmissionReads). */
  async findNear(
    companyId: string,
    amountMin: number,
    amountMax: number,
    from: string,
    to: string,
  ): Promise<HistoricalBooking[]> {
    return this.of(companyId)
      .filter((b) => b.amount >= amountMin && b.amount <= amountMax && b.date >= from && b.date <= to)
      .slice(0, NEAR_BOOKINGS_LIMIT);
  }

  private of(companyId: string): HistoricalBooking[] {
    return [...this.bookings.values()]
      .filter((entry) => entry.companyId === companyId)
      .map((entry) => ({ ...entry.booking }))
      .sort((a, b) => compare(a.date, b.date) || compare(a.provider, b.provider) || compare(a.bookingId, b.bookingId));
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
