import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule, ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import type { AppConfig } from '../config/app-config';

/** The rate limit's window (docs/api.md §1: requests per minute). */
const RATE_LIMIT_WINDOW_MS = 60_000;

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The rate limit (docs/api.md §1). Its counters never cost a database round trip:
 * - without REDIS_URL they live in this process's memory (@nestjs/throttler's own store), so each
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
        ? new ThrottlerStorageService()
        : new BoundedRedisThrottlerStorage(redisClient(config.redisUrl, config.redisTimeoutMs), config.redisTimeoutMs),
  });
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
  private readonly fallback = new ThrottlerStorageService();
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
