import { Clock } from '@app/domain';

/** The instant test clocks start at unless told: a weekday morning, UTC. */
export const DEFAULT_TEST_INSTANT = new Date('2026-11-20T10:00:00.000Z');

/** A clock that stands still until the test moves it. */
export class ManualClock extends Clock {
  private current: number;

  constructor(start: Date | string = DEFAULT_TEST_INSTANT) {
    super();
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(instant: Date | string): void {
    this.current = new Date(instant).getTime();
  }

  advance(by: { minutes?: number; seconds?: number; milliseconds?: number; hours?: number; days?: number }): void {
    this.current +=
      (by.days ?? 0) * 86_400_000 +
      (by.hours ?? 0) * 3_600_000 +
      (by.minutes ?? 0) * 60_000 +
      (by.seconds ?? 0) * 1_000 +
      (by.milliseconds ?? 0);
  }
}

/** A clock that never moves. */
export class FixedClock extends Clock {
  private readonly instant: number;

  constructor(instant: Date | string = DEFAULT_TEST_INSTANT) {
    super();
    this.instant = new Date(instant).getTime();
  }

  now(): Date {
    return new Date(this.instant);
  }
}
