import { ProviderError, type BookingRef, type ExpenseBooking, type Receipt } from '@app/domain';
import { createOnce } from './create-once';
import { receiptFor, type ReceiptTarget } from './receipt-format';

/** A provider's own steps of booking an expense; `bookThenAttach` runs them in its order. */
export interface BookingSteps<Draft> {
  /** Looks up what the booking needs at the provider (accounts, VAT type…) and builds the request. Creates nothing. */
  prepare(): Promise<Draft>;
  /** Sends the create; the new booking's id. May fail with an unknown outcome (timeout, 5xx). */
  create(draft: Draft): Promise<string>;
  /** The booking carrying `booking.reference`, or null: asked after a create whose outcome is unknown. */
  findByReference(): Promise<BookingRef | null>;
  /** Attaches the (converted) receipt to the booking: the adapter's `attachReceipt`. */
  attach(bookingId: string, receipt: Receipt): Promise<void>;
  /** Pause before that lookup, so the provider has settled, ms. */
  readonly settleMs: number;
}

/**
 * Books an expense and attaches its receipt, the same way for every provider:
 * 1. the receipt is converted to a type the provider takes (`target`) before anything is sent, so that a
 *    receipt it cannot take never leaves a booking without it;
 * 2. the provider's lookups and request (`prepare`);
 * 3. the create, sent once (`createOnce`): an unknown outcome is looked up by reference (three
 *    times, with growing pauses), never sent again here;
 * 4. the receipt attached, unless there is none or the booking found again already carries one.
 *    A failed upload keeps the booking's id on the error, so the caller attaches again instead of
 *    booking twice.
 * The provider's validation of the booking itself comes before this (it throws, nothing is sent).
 */
export async function bookThenAttach<Draft>(
  target: ReceiptTarget,
  booking: ExpenseBooking,
  steps: BookingSteps<Draft>,
): Promise<BookingRef> {
  const receipt = booking.receipt ? await receiptFor(target, booking.receipt) : undefined;
  const draft = await steps.prepare();
  const created = await createOnce(
    async () => ({ bookingId: await steps.create(draft), hasAttachment: false }),
    () => steps.findByReference(),
    steps.settleMs,
  );
  if (!receipt || created.hasAttachment) return created;
  try {
    await steps.attach(created.bookingId, receipt);
  } catch (error) {
    throw error instanceof ProviderError ? error.withBookingId(created.bookingId) : error;
  }
  return { bookingId: created.bookingId, hasAttachment: true };
}

/**
 * Attaches a receipt once: converted to a format the provider takes, uploaded, and when the upload's
 * outcome is unknown, the booking is read again (once, after `settleMs`) to see whether it carries an
 * attachment now. One read is enough here: when it misses, the error carries the booking's id and
 * the executor's next attempt reads the booking again before it attaches anything.
 */
export async function attachOnce(
  target: ReceiptTarget,
  receipt: Receipt,
  steps: {
    upload(file: Receipt): Promise<void>;
    hasAttachment(): Promise<boolean>;
    readonly settleMs: number;
  },
): Promise<void> {
  const file = await receiptFor(target, receipt);
  await createOnce(
    async () => {
      await steps.upload(file);
      return true;
    },
    async () => ((await steps.hasAttachment()) ? true : null),
    { settleMs: steps.settleMs, lookups: 1 },
  );
}
