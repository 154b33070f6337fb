const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function assertIsoDate(value: string, field: string): void {
  if (!ISO_DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new RangeError(`${field} must be a YYYY-MM-DD date, got "${value}"`);
  }
}

/** `YYYY-MM-DD` plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Today's date in Norway (Europe/Oslo), where both providers keep their calendars. */
export function osloDate(now: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Oslo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/**
 * The `expirationDate` of a new Tripletex session: tomorrow in Oslo. Tripletex ends a session at
 * Oslo midnight of that date, so today's date (or the UTC date in Oslo's first hours) would give a
 * session that is dead on arrival.
 */
export function tripletexSessionExpirationDate(now: Date): string {
  return addDays(osloDate(now), 1);
}
