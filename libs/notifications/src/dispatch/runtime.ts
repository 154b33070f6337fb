/** The dispatcher's view of time, timers, randomness and logging, all injectable for tests. */

/** Structurally the domain's `Clock`, so a Clock instance can be passed as is. */
export interface TimeSource {
  now(): Date;
}

export interface Timer {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const systemTimer: Timer = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * Structured logging. Fields are ids, kinds, attempts and error descriptions: never URLs,
 * secrets or payloads.
 */
export interface NotificationLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const silentLogger: NotificationLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
