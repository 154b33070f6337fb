import { Pattern } from '../pattern/pattern';
import { Page, PageRequest } from '../shared/page';

export interface PatternKey {
  readonly merchantKey: string;
  readonly accountCode: string;
  readonly vatRate: string;
}

export interface PatternListQuery extends PageRequest {
  /** Only patterns with this exact normalised key. */
  readonly merchantKey?: string;
  /** Retired patterns are left out unless asked for. */
  readonly includeRetired?: boolean;
  /** Only the history's suggestions no one has confirmed yet (isPendingSuggestion). */
  readonly pendingSuggestions?: boolean;
}

/** How many look-alike candidates a submission reads at most (SubmissionReads). */
export const DEFAULT_CANDIDATE_LIMIT = 20;

/**
 * Merchant patterns, scoped by company. At most one *active* pattern per (company, merchantKey,
 * accountCode, vatRate): saving a second one is a ConcurrencyConflict (two first approvals of one
 * merchant racing).
 */
export abstract class PatternStore {
  /** The active pattern with exactly this key, account and VAT rate, to strengthen on approval. */
  abstract findActiveByKey(companyId: string, key: PatternKey): Promise<Pattern | null>;

  abstract findById(companyId: string, id: string): Promise<Pattern | null>;

  /** Oldest first (createdAt, then id), keyset-paginated. */
  abstract list(companyId: string, query: PatternListQuery): Promise<Page<Pattern>>;

  /**
   * Inserts (`expectedVersion` null) or updates (stored version must equal `expectedVersion`) a
   * pattern, including its retirement; ConcurrencyConflict otherwise.
   */
  abstract save(pattern: Pattern, expectedVersion: number | null): Promise<void>;
}
