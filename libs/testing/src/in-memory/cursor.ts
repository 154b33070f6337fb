import { ValidationFailed } from '@app/domain';

/** Opaque keyset cursors for the in-memory adapters: base64url of a JSON array of sort keys. */
function encodeCursor(keys: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(keys), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): (string | number)[] {
  try {
    const keys: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(keys) && keys.every((key) => typeof key === 'string' || typeof key === 'number')) {
      return keys as (string | number)[];
    }
  } catch {
    // falls through to the validation error
  }
  throw new ValidationFailed('cursor is not a cursor this service issued', [
    { field: 'cursor', message: 'cursor is invalid' },
  ]);
}

/** Compares two sort-key tuples element by element. */
function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** One keyset page of `sorted` (ascending by `keyOf`) after `cursor`. */
export function pageAfter<T>(
  sorted: readonly T[],
  keyOf: (item: T) => (string | number)[],
  limit: number,
  cursor: string | null | undefined,
): { items: T[]; nextCursor: string | null } {
  const after = cursor ? decodeCursor(cursor) : null;
  const remaining = after ? sorted.filter((item) => compareKeys(keyOf(item), after) > 0) : [...sorted];
  const items = remaining.slice(0, limit);
  const nextCursor = remaining.length > limit ? encodeCursor(keyOf(items[items.length - 1])) : null;
  return { items, nextCursor };
}

/** Refuses a limit outside 1–200, as the adapters of every pageable port do. */
export function assertLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 200) {
    throw new ValidationFailed('limit must be 1 to 200', [{ field: 'limit', message: 'limit must be 1 to 200' }]);
  }
}
