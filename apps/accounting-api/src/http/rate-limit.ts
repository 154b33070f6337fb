import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { DataSource } from 'typeorm';
import { PostgresThrottlerStorage } from '@app/persistence';
import type { AppConfig } from '../config/app-config';
import { PollingLoop } from '../platform/polling-loop';

/** The rate limit's window (docs/api.md §1: requests per minute). */
const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * The rate limit (docs/api.md §1), shared by every instance: the counters live in Redis when REDIS_URL
 * is set (`@nest-lab/throttler-storage-redis`, keys expire by themselves), in PostgreSQL otherwise
 * (PostgresThrottlerStorage, purged by RateLimitPurgeWorker).
 */
export function rateLimitModule(config: AppConfig) {
  return ThrottlerModule.forRootAsync({
    inject: [DataSource],
    useFactory: (dataSource: DataSource) => ({
      throttlers: [{ ttl: RATE_LIMIT_WINDOW_MS, limit: config.rateLimitPerMinute }],
      storage: rateLimitStorage(config, dataSource),
    }),
  });
}

function rateLimitStorage(config: AppConfig, dataSource: DataSource): ThrottlerStorage {
  if (config.redisUrl === undefined) return new PostgresThrottlerStorage(dataSource);
  return new ThrottlerStorageRedisService(config.redisUrl);
}

/** Keys deleted per statement. */
const RATE_LIMIT_PURGE_BATCH = 1_000;

/**
 * Deletes the PostgreSQL rate limit's rows whose window and block are over, once a window, a batch
 * at a time until none is left. Any number of instances may run it.
 */
@Injectable()
export class RateLimitPurgeWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly storage: PostgresThrottlerStorage;
  private readonly loop: PollingLoop;

  constructor(dataSource: DataSource) {
    this.storage = new PostgresThrottlerStorage(dataSource);
    this.loop = new PollingLoop({
      pass: async () => (await this.storage.purgeExpired(RATE_LIMIT_PURGE_BATCH)) === RATE_LIMIT_PURGE_BATCH,
      intervalMs: RATE_LIMIT_WINDOW_MS,
      pauseFirst: true,
      logger: new Logger(RateLimitPurgeWorker.name),
      label: 'purging expired rate limit windows',
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
