/** The current instant. Injected everywhere time matters so that rules are testable. */
export abstract class Clock {
  abstract now(): Date;
}
