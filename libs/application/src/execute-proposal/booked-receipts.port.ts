/** Which proposal holds a receipt, and the booking it became once booked. */
export interface ReceiptHolder {
  readonly proposalId: string;
  /** The provider's booking (voucher, purchase) made with the receipt; null while being booked. */
  readonly bookingId: string | null;
}

/**
 * The company's durable record of receipt → booking: one receipt (its SHA-256) is booked at most
 * once per company, whichever proposal carries it. The executor reserves the receipt for its
 * proposal before calling the provider, records the booking in the unit of work of `Executed`, and
 * releases a reservation whose execution failed for good without booking.
 *
 * Every method joins the unit of work it is called in. Two units reserving one receipt at the same
 * moment: one wins, the other sees the winner (on PostgreSQL the primary key makes the second wait
 * for the first to commit).
 */
export abstract class BookedReceipts {
  /**
   * Reserves `sha256` for `proposalId`. Returns null when the receipt is now (or already was) this
   * proposal's, else the proposal that holds it.
   */
  abstract reserve(companyId: string, sha256: string, proposalId: string, now: Date): Promise<ReceiptHolder | null>;

  /** Records the booking made with the receipt `proposalId` holds (reserving it if it was not). */
  abstract recordBooking(
    companyId: string,
    sha256: string,
    proposalId: string,
    bookingId: string,
    now: Date,
  ): Promise<void>;

  /** Drops `proposalId`'s reservation of `sha256` if nothing was booked with it; otherwise does nothing. */
  abstract release(companyId: string, sha256: string, proposalId: string): Promise<void>;

  abstract find(companyId: string, sha256: string): Promise<ReceiptHolder | null>;
}
