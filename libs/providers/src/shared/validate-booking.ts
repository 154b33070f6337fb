import { ExpenseBooking, ProviderError, ProviderKind } from '@app/domain';
import { assertIsoDate } from './dates';
import { percentToHundredths } from './money';

/** Checks an expense before anything is sent; returns its VAT rate in hundredths of a percent. */
export function validateBooking(provider: ProviderKind, booking: ExpenseBooking): number {
  assertIsoDate(booking.date, 'date');
  if (!Number.isSafeInteger(booking.grossAmount) || booking.grossAmount <= 0) {
    throw new RangeError('grossAmount must be a positive integer of minor units');
  }
  if (booking.reference.trim() === '') {
    throw new RangeError('a booking needs a reference');
  }
  const rate = percentToHundredths(booking.vatRate);
  if (rate === null) {
    throw new ProviderError(provider, 'unknown_vat_rate', `"${booking.vatRate}" is not a VAT percentage`);
  }
  return rate;
}
