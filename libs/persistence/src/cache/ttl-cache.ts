import { LRUCache } from 'lru-cache';

/**
 * A read-through cache over `lru-cache`: entries live `ttlMs`, at most `maxEntries` keys (the least
 * recently used goes first). What it adds is the read-through rule: concurrent misses of one key
 * share one load, a failed load is not kept, and `delete` wins over a load still in flight (that
 * load's result is handed to its callers but not kept). `ttlMs` 0 caches nothing.
 */
export class TtlCache<V> {
  private readonly entries: LRUCache<string, Promise<V>>;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
    now: () => number = Date.now,
  ) {
    this.entries = new LRUCache({ max: maxEntries, ttl: Math.max(ttlMs, 1), ttlResolution: 0, perf: { now } });
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const cached = this.entries.get(key);
    if (cached) return cached;
    const value = load();
    // Until the load settles the entry does not expire, so that concurrent misses share it.
    this.entries.set(key, value, { ttl: 0 });
    value.then(
      () => {
        if (this.entries.peek(key) === value) this.entries.set(key, value, { ttl: this.ttlMs });
      },
      () => {
        if (this.entries.peek(key) === value) this.entries.delete(key);
      },
    );
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
