import { createHash } from 'node:crypto';
import type { ExpenseBooking } from '@app/domain';

/** What a booking says it is: `merchant: description`, or the merchant alone when there is nothing more. */
export function bookingText(booking: Pick<ExpenseBooking, 'merchant' | 'description'>): string {
  const description = booking.description?.trim() ?? '';
  return description === '' || description === booking.merchant
    ? booking.merchant
    : `${booking.merchant}: ${description}`;
}

/**
 * `text` in at most `max` characters: whole when it fits, else cut at a word boundary near the end
 * (or mid-word when none is near) and ended with "…".
 */
export function fitText(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const room = chars.slice(0, max - 1).join('');
  const space = room.lastIndexOf(' ');
  const cut = space >= room.length - 20 && space > 0 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,.;:–-]+$/u, '')}…`;
}

/**
 * The longest voucher text sent to Tripletex. Its definition declares no maximum, and a merchant and
 * description can reach some 1 250 characters together; a text Tripletex cut would lose whatever
 * stands at its end. 255 characters is what its own screens show of a voucher text.
 */
export const MAX_VOUCHER_TEXT = 255;

/**
 * A voucher's text carrying our reference: the `(ref …)` marker first, where no truncation of the
 * end can reach it (a search by date finds the voucher by it when the external voucher number
 * search is not offered), then the booking's text, fitted into what is left of `max`.
 */
export function referencedText(text: string, reference: string, max = MAX_VOUCHER_TEXT): string {
  const marker = `(ref ${reference})`;
  const room = max - Array.from(marker).length - 1;
  return room < 2 ? marker : `${marker} ${fitText(text, room)}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A short, readable form of our booking reference (the proposal id) for the provider's own UI, such
 * as Fiken's invoice number: `P-` and ten Crockford base32 characters (50 bits of the reference's
 * SHA-256) in two groups, e.g. `P-7KQ2M-9XD3F`. Stable, so a booking is found again by it; a search
 * compares it only among one company's bookings of one date, where two references sharing it are
 * beyond reckoning.
 */
export function readableReference(reference: string): string {
  const digest = createHash('sha256').update(reference).digest();
  let bits = 0n;
  for (const byte of digest.subarray(0, 7)) bits = (bits << 8n) | BigInt(byte);
  bits >>= 6n; // 56 → 50 bits
  let code = '';
  for (let i = 0; i < 10; i++) {
    code = CROCKFORD[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  return `P-${code.slice(0, 5)}-${code.slice(5)}`;
}
