import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

/** How often keys without live hits are forgotten. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The expiry times of one key's hits, oldest first. Hits are appended in time order with one ttl,
 * so the expired ones are always at the front: dropping them costs O(expired), not O(hits).
 */
class HitLog {
  private times: number[] = [];
  private head = 0;

  get size(): number {
    return this.times.length - this.head;
  }

  add(expiresAt: number): void {
    this.times.push(expiresAt);
  }

  dropExpired(now: number): void {
    while (this.head < this.times.length && this.times[this.head] <= now) this.head++;
    // Give the dropped front back now and then, not at every hit.
    if (this.head >= 1024 && this.head * 2 >= this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.times = [];
    this.head = 0;
  }
}

interface KeyRecord {
  readonly hits: HitLog;
  /** End of the current window, for the X-RateLimit-Reset header. */
  expiresAt: number;
  blocked: boolean;
  blockExpiresAt: number;
}

/**
 * The in-memory store of the rate limit (contract §1), with the semantics of @nestjs/throttler's
 * own store: a sliding log of each key's hits over the ttl; the hit past the limit blocks the key
 * for `blockDuration`; hits are not counted while blocked; the block's end starts the count afresh.
 *
 * The library's store filters a key's whole log at every request, so a request costs O(limit):
 * with a limit of 100 000/minute raised for a busy gateway, tens of thousands of timestamps per
 * request. Here the log is a queue whose expired front is dropped: O(1) per request, amortized.
 */
export class SlidingWindowThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly records = new Map<string, KeyRecord>();
  private sweep?: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    this.startSweep();
    const now = this.now();
    const recordKey = `${throttlerName}\u0000${key}`;
    let record = this.records.get(recordKey);
    if (!record) {
      record = { hits: new HitLog(), expiresAt: now + ttl, blocked: false, blockExpiresAt: 0 };
      this.records.set(recordKey, record);
    }
    record.hits.dropExpired(now);
    if (record.expiresAt <= now) record.expiresAt = now + ttl;
    if (record.blocked && record.blockExpiresAt <= now) {
      record.blocked = false;
      record.hits.clear();
    }
    if (!record.blocked) {
      record.hits.add(now + ttl);
      if (record.hits.size > limit) {
        record.blocked = true;
        record.blockExpiresAt = now + blockDuration;
      }
    }
    return Promise.resolve({
      totalHits: record.hits.size,
      timeToExpire: Math.ceil((record.expiresAt - now) / 1000),
      isBlocked: record.blocked,
      timeToBlockExpire: record.blocked ? Math.ceil((record.blockExpiresAt - now) / 1000) : 0,
    });
  }

  /** Keys without live hits and not blocked are forgotten. */
  evictIdle(): void {
    const now = this.now();
    for (const [key, record] of this.records) {
      record.hits.dropExpired(now);
      if (record.hits.size === 0 && !(record.blocked && record.blockExpiresAt > now)) this.records.delete(key);
    }
  }

  get size(): number {
    return this.records.size;
  }

  onApplicationShutdown(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    this.records.clear();
  }

  private startSweep(): void {
    if (this.sweep) return;
    this.sweep = setInterval(() => this.evictIdle(), SWEEP_INTERVAL_MS);
    this.sweep.unref();
  }
}
