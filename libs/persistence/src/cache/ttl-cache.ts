interface Entry<V> {
  readonly value: Promise<V>;
  expiresAt: number;
}

/**
 * A read-through cache whose entries live `ttlMs`: concurrent misses of one key share one load,
 * a failed load is not kept, and `delete` wins over a load still in flight (that load's result is
 * handed to its callers but not kept). At most `maxEntries` keys; when full, it starts over.
 * `ttlMs` 0 caches nothing.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    // Until the load settles the entry lives for ever, so that concurrent misses share it.
    const entry: Entry<V> = { value: load(), expiresAt: Number.POSITIVE_INFINITY };
    this.entries.set(key, entry);
    entry.value.then(
      () => {
        if (this.entries.get(key) === entry) entry.expiresAt = this.now() + this.ttlMs;
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
