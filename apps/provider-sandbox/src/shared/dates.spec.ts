import { addDays, fromEpochDay, isIsoDate, osloDate, osloMidnight, toEpochDay } from './dates';

describe('dates', () => {
  it('converts between ISO dates and epoch days exactly like Date does', () => {
    for (let day = -25_567; day < 84_000; day += 97) {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      expect(fromEpochDay(day)).toBe(iso);
      expect(toEpochDay(iso)).toBe(day);
    }
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });

  it('validates ISO dates', () => {
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-3-1')).toBe(false);
  });

  it('finds Oslo midnight in winter and summer time', () => {
    expect(osloMidnight('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(osloMidnight('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    expect(osloDate(new Date('2026-07-14T22:30:00Z'))).toBe('2026-07-15');
  });
});
