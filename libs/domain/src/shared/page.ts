/** Keyset pagination (docs/api.md §1): an opaque cursor, null on the last page. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export interface PageRequest {
  /** 1–200; the HTTP layer applies the default of 50. */
  readonly limit: number;
  readonly cursor?: string | null;
}

export const MAX_PAGE_LIMIT = 200;
export const DEFAULT_PAGE_LIMIT = 50;
