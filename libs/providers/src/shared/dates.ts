import { addDays, osloDate } from '@app/domain';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function assertIsoDate(value: string, field: string): void {
  if (!ISO_DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new RangeError(`${field} must be a YYYY-MM-DD date, got "${value}"`);
  }
}

/** Calendar arithmetic and today's date in Norway, where both providers keep their calendars. */
export { addDays, osloDate };

/**
 * The `expirationDate` of a new Tripletex session: tomorrow in Oslo. Tripletex ends a session at
 * Oslo midnight of that date, so today's date (or the UTC date in Oslo's first hours) would give a
 * session that is dead on arrival.
 */
export function tripletexSessionExpirationDate(now: Date): string {
  return addDays(osloDate(now), 1);
}
