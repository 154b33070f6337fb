import type { TimeSource, Timer } from '@app/notifications';

/** A clock that moves only when told to. */
export class ManualClock implements TimeSource {
  private current: number;

  constructor(start: Date | string = '2026-11-20T07:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/** Timers that fire only when the test says so; `fireNext` runs the earliest pending one. */
export class ManualTimer implements Timer {
  private readonly pending = new Map<number, { callback: () => void; ms: number }>();
  private nextHandle = 1;

  set(callback: () => void, ms: number): number {
    const handle = this.nextHandle++;
    this.pending.set(handle, { callback, ms });
    return handle;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get count(): number {
    return this.pending.size;
  }

  /** The delays of the pending timers, in the order they were set. */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }

  fireNext(): void {
    const [handle, timer] = [...this.pending.entries()][0] ?? [];
    if (handle === undefined || !timer) throw new Error('no pending timer');
    this.pending.delete(handle);
    timer.callback();
  }
}
