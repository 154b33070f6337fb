/**
 * Deterministic pseudo-randomness. Every generated fact is a pure function of the sandbox seed and
 * a few integer keys (company index, stream, item index), so a ledger can be regenerated on demand
 * instead of being held in memory.
 */

/** Mixes 32-bit integers into one well-distributed 32-bit hash (murmur3 finaliser per key). */
export function hashInts(...keys: number[]): number {
  let h = 0x811c9dc5;
  for (const key of keys) {
    let k = Math.imul(key | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A small seeded generator (mulberry32). */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static of(...keys: number[]): Random {
    return new Random(hashInts(...keys));
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Log-uniform amount in øre between two kroner bounds, rounded to whole øre. */
  amountOre(minKroner: number, maxKroner: number): number {
    const value = Math.exp(Math.log(minKroner) + this.next() * (Math.log(maxKroner) - Math.log(minKroner)));
    return Math.round(value * 100);
  }
}
