import { MAX_PAGE_LIMIT, ValidationFailed } from '@app/domain';

/**
 * Opaque keyset cursors (docs/api.md §1): base64url of a JSON array of the last row's sort keys.
 * Clients never look inside; a cursor that does not decode to the expected shape is a
 * `validation_failed` on `cursor`.
 */
function encodeCursor(keys: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(keys), 'utf8').toString('base64url');
}

function invalidCursor(): never {
  throw new ValidationFailed('cursor is not a cursor this service issued', [
    { field: 'cursor', message: 'cursor is invalid' },
  ]);
}

/** Decodes a cursor whose keys must have exactly these types, in order. */
export function decodeCursor<const K extends readonly ('string' | 'number')[]>(
  cursor: string,
  shape: K,
): { [I in keyof K]: K[I] extends 'string' ? string : number } {
  let keys: unknown;
  try {
    keys = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    invalidCursor();
  }
  if (!Array.isArray(keys) || keys.length !== shape.length) invalidCursor();
  keys.forEach((key, i) => {
    if (typeof key !== shape[i] || (typeof key === 'number' && !Number.isSafeInteger(key))) invalidCursor();
  });
  return keys as { [I in keyof K]: K[I] extends 'string' ? string : number };
}

/** Refuses a page size outside 1–200, as every pageable port does. */
export function assertLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new ValidationFailed(`limit must be 1 to ${MAX_PAGE_LIMIT}`, [
      { field: 'limit', message: `limit must be 1 to ${MAX_PAGE_LIMIT}` },
    ]);
  }
}

/**
 * Builds a page from up to `limit + 1` rows fetched in order: the extra row only tells that there
 * is a next page, whose cursor is the last returned row's keys.
 */
export function toPage<R, T>(
  rows: readonly R[],
  limit: number,
  map: (row: R) => T,
  keysOf: (row: R) => (string | number)[],
): { items: T[]; nextCursor: string | null } {
  const pageRows = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(keysOf(pageRows[pageRows.length - 1])) : null;
  return { items: pageRows.map(map), nextCursor };
}
