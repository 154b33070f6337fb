import {
  isPendingSuggestion,
  ConcurrencyConflict,
  DEFAULT_CANDIDATE_LIMIT,
  Page,
  Pattern,
  PatternKey,
  PatternListQuery,
  PatternStore,
  sameVatRate,
  trigramSimilarity,
} from '@app/domain';
import { assertLimit, pageAfter } from './cursor';
import { copy, Snapshottable } from './snapshottable';

/** pg_trgm's default `similarity_threshold`, which the PostgreSQL adapter's `%` operator uses. */
export const TRIGRAM_CANDIDATE_THRESHOLD = 0.3;

/** PatternStore in a map, pre-filtering candidates like pg_trgm would. Contract: pattern-store.contract.ts. */
export class InMemoryPatternStore extends PatternStore implements Snapshottable {
  private patterns = new Map<string, Pattern>();

  /** A submission's candidate patterns (InMemorySubmissionReads; SubmissionReadings.candidates). */
  async findCandidates(companyId: string, merchantKey: string): Promise<Pattern[]> {
    const active = this.active(companyId);
    const exact = active.filter((p) => p.merchantKey === merchantKey).sort(byId);
    if (exact.length > 0) return exact.map(copy);
    return active
      .map((pattern) => ({ pattern, similarity: trigramSimilarity(merchantKey, pattern.merchantKey) }))
      .filter(({ similarity }) => similarity >= TRIGRAM_CANDIDATE_THRESHOLD)
      .sort((a, b) => b.similarity - a.similarity || byId(a.pattern, b.pattern))
      .slice(0, DEFAULT_CANDIDATE_LIMIT)
      .map(({ pattern }) => copy(pattern));
  }

  async findActiveByKey(companyId: string, key: PatternKey): Promise<Pattern | null> {
    const found = this.active(companyId).find((p) => sameKey(p, key));
    return found ? copy(found) : null;
  }

  async findById(companyId: string, id: string): Promise<Pattern | null> {
    const pattern = this.patterns.get(id);
    return pattern && pattern.companyId === companyId ? copy(pattern) : null;
  }

  async list(companyId: string, query: PatternListQuery): Promise<Page<Pattern>> {
    assertLimit(query.limit);
    const sorted = [...this.patterns.values()]
      .filter((p) => p.companyId === companyId)
      .filter((p) => query.includeRetired || p.retiredAt === null)
      .filter((p) => query.merchantKey === undefined || p.merchantKey === query.merchantKey)
      .filter((p) => !query.pendingSuggestions || isPendingSuggestion(p))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || byId(a, b));
    const page = pageAfter(sorted, (p) => [p.createdAt.getTime(), p.id], query.limit, query.cursor);
    return { items: page.items.map(copy), nextCursor: page.nextCursor };
  }

  async save(pattern: Pattern, expectedVersion: number | null): Promise<void> {
    const stored = this.patterns.get(pattern.id);
    if (expectedVersion === null && stored) {
      throw new ConcurrencyConflict(`pattern ${pattern.id} already exists`);
    }
    if (
      expectedVersion !== null &&
      (!stored || stored.companyId !== pattern.companyId || stored.version !== expectedVersion)
    ) {
      throw new ConcurrencyConflict(
        `pattern ${pattern.id} changed meanwhile: expected version ${expectedVersion}, found ${stored ? stored.version : 'none'}`,
      );
    }
    if (pattern.retiredAt === null) {
      const twin = this.active(pattern.companyId).find((p) => p.id !== pattern.id && sameKey(p, pattern));
      if (twin) {
        throw new ConcurrencyConflict(
          `an active pattern for ${pattern.merchantKey} → ${pattern.accountCode} / ${pattern.vatRate}% already exists (${twin.id})`,
        );
      }
    }
    this.patterns.set(pattern.id, copy(pattern));
  }

  /** Every stored pattern: for assertions. */
  all(): Pattern[] {
    return [...this.patterns.values()].map(copy);
  }

  snapshot(): unknown {
    return new Map(this.patterns);
  }

  restore(snapshot: unknown): void {
    this.patterns = new Map(snapshot as Map<string, Pattern>);
  }

  private active(companyId: string): Pattern[] {
    return [...this.patterns.values()].filter((p) => p.companyId === companyId && p.retiredAt === null);
  }
}

function sameKey(pattern: Pattern, key: PatternKey): boolean {
  return (
    pattern.merchantKey === key.merchantKey &&
    pattern.accountCode === key.accountCode &&
    sameVatRate(pattern.vatRate, key.vatRate)
  );
}

/** The same patterns (by id) at the same versions, in any order. */
function byId(a: Pattern, b: Pattern): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
