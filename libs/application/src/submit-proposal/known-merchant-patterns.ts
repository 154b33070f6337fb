import { isActivePattern, type Pattern } from '@app/domain';

/** How many (company, merchant key) entries a process remembers. */
export const KNOWN_MERCHANTS_CAPACITY = 10_000;

/**
 * Per process: the active patterns of merchant keys that submissions met lately, for the keys that
 * have any. When a key has exact-key patterns they are all the ConfidenceEngine looks at, so a
 * submission from a known merchant can be scored without reading the database: it then stores its
 * result only if those patterns still hold (PatternStore.expectActive, checked by the same
 * statement that stores the proposal), and when they changed — in this process or another — it
 * forgets them, reads again and scores again. Nothing here can go stale unnoticed; the map only
 * saves a round trip per submission.
 *
 * At most `capacity` keys; the oldest entry is forgotten first. Remembered patterns are frozen:
 * every submission of the merchant shares them.
 */
export class KnownMerchantPatterns {
  private readonly entries = new Map<string, readonly Pattern[]>();

  constructor(private readonly capacity = KNOWN_MERCHANTS_CAPACITY) {}

  /** The remembered active patterns of exactly `merchantKey`, or undefined: read them. */
  get(companyId: string, merchantKey: string): readonly Pattern[] | undefined {
    return this.entries.get(entryKey(companyId, merchantKey));
  }

  /** Keeps the exact-key active patterns among freshly read `candidates`; a key without any is not kept. */
  remember(companyId: string, merchantKey: string, candidates: readonly Pattern[]): void {
    const key = entryKey(companyId, merchantKey);
    const exact = candidates.filter(
      (p) => p.merchantKey === merchantKey && p.companyId === companyId && isActivePattern(p),
    );
    if (merchantKey === '' || exact.length === 0 || this.capacity <= 0) {
      this.entries.delete(key);
      return;
    }
    if (!this.entries.has(key) && this.entries.size >= this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, Object.freeze(exact.map(freezePattern)));
  }

  forget(companyId: string, merchantKey: string): void {
    this.entries.delete(entryKey(companyId, merchantKey));
  }

  get size(): number {
    return this.entries.size;
  }
}

function entryKey(companyId: string, merchantKey: string): string {
  // A company id never contains a NUL: the pair cannot collide with another.
  return `${companyId}\u0000${merchantKey}`;
}

function freezePattern(pattern: Pattern): Pattern {
  Object.freeze(pattern.amountStats);
  return Object.freeze(pattern);
}
