import { addDays, assertIsoDate, osloDate, tripletexSessionExpirationDate } from './dates';

describe('dates', () => {
  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('tells the Oslo date, which runs ahead of UTC late in the evening', () => {
    expect(osloDate(new Date('2026-11-20T23:30:00Z'))).toBe('2026-11-21');
    expect(osloDate(new Date('2026-06-20T21:59:00Z'))).toBe('2026-06-20');
    expect(osloDate(new Date('2026-06-20T22:00:00Z'))).toBe('2026-06-21');
  });

  it("asks Tripletex for a session until tomorrow's Oslo midnight, also in Oslo's first hours", () => {
    expect(tripletexSessionExpirationDate(new Date('2026-11-25T12:00:00Z'))).toBe('2026-11-26');
    expect(tripletexSessionExpirationDate(new Date('2026-11-25T23:30:00Z'))).toBe('2026-11-27');
    expect(tripletexSessionExpirationDate(new Date('2026-06-30T22:15:00Z'))).toBe('2026-07-02');
  });

  it('refuses malformed dates', () => {
    expect(() => assertIsoDate('2026-13-01', 'date')).toThrow(RangeError);
    expect(() => assertIsoDate('20.11.2026', 'date')).toThrow(RangeError);
    expect(() => assertIsoDate('2026-11-20', 'date')).not.toThrow();
  });
});
