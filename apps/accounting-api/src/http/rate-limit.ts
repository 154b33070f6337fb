import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import type { AppConfig } from '../config/app-config';

/** The rate limit's window (docs/api.md §1: requests per minute). */
const RATE_LIMIT_WINDOW_MS = 60_000;

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The rate limit (docs/api.md §1). Its counters never cost a database round trip:
 * - without REDIS_URL they live in this process's memory (MemoryThrottlerStorage), so each
 *   instance counts its own requests: N instances behind a load balancer let a caller make up to
 *   N × the limit per minute;
 * - with REDIS_URL they live in Redis (`@nest-lab/throttler-storage-redis`), one limit for every
 *   instance, each call bounded by REDIS_TIMEOUT_MS (BoundedRedisThrottlerStorage).
 */
export function rateLimitModule(config: AppConfig) {
  return ThrottlerModule.forRoot({
    throttlers: [{ ttl: RATE_LIMIT_WINDOW_MS, limit: config.rateLimitPerMinute }],
    storage:
      config.redisUrl === undefined
        ? new MemoryThrottlerStorage()
        : new BoundedRedisThrottlerStorage(redisClient(config.redisUrl, config.redisTimeoutMs), config.redisTimeoutMs),
  });
}

interface Counter {
  /** When each hit counted in the window leaves it, oldest first; those before `head` have left. */
  expiries: number[];
  head: number;
  /** The end of the record's window (X-RateLimit-Reset), restarted when it has passed. */
  windowEndsAt: number;
  /** While over the limit: when the caller may start again (0: not blocked). */
  blockedUntil: number;
}

/** Drop the expired front of a counter's list once it is this long and most of the list. */
const COMPACT_AFTER = 1_024;
/** How often counters with nothing left in their window are forgotten. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The rate limit's counters in this process's memory, with @nestjs/throttler's own semantics (a
 * sliding log: a hit counts for `ttl` after it was made; the hit over the limit blocks the caller
 * for `blockDuration`, after which counting starts afresh) at a constant cost per request.
 * @nestjs/throttler's ThrottlerStorageService filters and copies the whole list of a caller's hits
 * in the window on every request: at a limit that lets one caller make tens of thousands of
 * requests a minute (a gateway's service account, or the benchmarks) that cost 0.3–1 ms of CPU per
 * request and most of the service's garbage. Hits are added in time order, so the expired ones are
 * always at the front: they are skipped by an index and dropped in bulk now and then.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly counters = new Map<string, Counter>();
  private sweep?: NodeJS.Timeout;

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return this.hit(`${throttlerName}\u0000${key}`, ttl, limit, blockDuration, Date.now());
  }

  /** Counts one hit of `key` at `now` (ms). */
  hit(key: string, ttl: number, limit: number, blockDuration: number, now: number): ThrottlerStorageRecord {
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { expiries: [], head: 0, windowEndsAt: now + ttl, blockedUntil: 0 };
      this.counters.set(key, counter);
      this.startSweep();
    }
    dropExpired(counter, now);
    if (counter.windowEndsAt <= now) counter.windowEndsAt = now + ttl;
    if (counter.blockedUntil !== 0 && counter.blockedUntil <= now) {
      counter.blockedUntil = 0;
      counter.expiries = [];
      counter.head = 0;
    }
    let isBlocked: boolean;
    let timeToBlockExpire = 0;
    if (blockDuration > 0) {
      if (counter.blockedUntil === 0) {
        counter.expiries.push(now + ttl);
        if (counter.expiries.length - counter.head > limit) counter.blockedUntil = now + blockDuration;
      }
      isBlocked = counter.blockedUntil !== 0;
      if (isBlocked) timeToBlockExpire = Math.ceil((counter.blockedUntil - now) / 1000);
    } else {
      // No block: the request over the limit is refused and not counted; the caller may go on as
      // soon as the oldest hit leaves the window.
      isBlocked = counter.expiries.length - counter.head >= limit;
      if (isBlocked) timeToBlockExpire = Math.ceil((counter.expiries[counter.head] - now) / 1000);
      else counter.expiries.push(now + ttl);
    }
    const hits = counter.expiries.length - counter.head;
    return {
      totalHits: isBlocked && blockDuration <= 0 ? hits + 1 : hits,
      timeToExpire: Math.ceil((counter.windowEndsAt - now) / 1000),
      isBlocked,
      timeToBlockExpire,
    };
  }

  /** Forgets the counters with no hit left in their window and no block running. */
  sweepIdle(now = Date.now()): void {
    for (const [key, counter] of this.counters) {
      dropExpired(counter, now);
      if (counter.expiries.length === counter.head && counter.blockedUntil <= now) this.counters.delete(key);
    }
  }

  /** Callers counted now (for tests). */
  get size(): number {
    return this.counters.size;
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweep);
    this.sweep = undefined;
    this.counters.clear();
  }

  private startSweep(): void {
    if (this.sweep) return;
    this.sweep = setInterval(() => this.sweepIdle(), SWEEP_INTERVAL_MS);
    this.sweep.unref();
  }
}

function dropExpired(counter: Counter, now: number): void {
  const { expiries } = counter;
  while (counter.head < expiries.length && expiries[counter.head] <= now) counter.head++;
  if (counter.head >= COMPACT_AFTER && counter.head * 2 >= expiries.length) {
    counter.expiries = expiries.slice(counter.head);
    counter.head = 0;
  }
}

/**
 * An ioredis client that fails fast: a command not answered within `timeoutMs` fails, and while the
 * connection is down commands fail at once instead of queueing (ioredis's offline queue would hold
 * them until Redis is back). It keeps reconnecting in the background, at most every 2 s.
 */
export function redisClient(url: string, timeoutMs: number): Redis {
  const redis = new Redis(url, {
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  // Connection errors are the storage's to report (once per outage); ioredis would print each one.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * The Redis store of the rate limit with a bound on each call. The policy when Redis does not answer
 * within `timeoutMs` (slow, down, restarting): the request is counted in this process's memory
 * instead, as without REDIS_URL — the caller still meets a limit (per instance for the time being),
 * and the request waits at most `timeoutMs` more, never Redis's own timeouts. One log line when
 * Redis stops answering and one when it answers again. Counts made in memory during an outage are
 * not carried over to Redis.
 */
export class BoundedRedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redisStore: ThrottlerStorageRedisService;
  private readonly fallback = new MemoryThrottlerStorage();
  private degraded = false;

  constructor(
    private readonly redis: Redis,
    private readonly timeoutMs: number,
  ) {
    this.redisStore = new ThrottlerStorageRedisService(redis);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const record = await withTimeout(
        this.redisStore.increment(key, ttl, limit, blockDuration, throttlerName),
        this.timeoutMs,
      );
      if (this.degraded) {
        this.degraded = false;
        this.logger.log('Redis answers again: the rate limit is counted in Redis');
      }
      return record;
    } catch (error) {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn(
          `Redis did not answer within ${this.timeoutMs} ms (${error instanceof Error ? error.message : String(error)}): ` +
            'the rate limit is counted in this instance only until it does',
        );
      }
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  onApplicationShutdown(): void {
    this.fallback.onApplicationShutdown();
    this.redis.disconnect(false);
  }
}

/** `promise`, or a rejection after `ms` (the promise's own outcome is then ignored). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
