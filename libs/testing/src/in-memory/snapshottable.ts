/** An in-memory adapter whose whole state can be saved and put back: how InMemoryUnitOfWork rolls back. */
export interface Snapshottable {
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}

/**
 * A deep copy of plain data (objects, arrays, Dates, primitives), so that nobody outside an adapter
 * holds a reference into its state. Not structuredClone: under jest that makes Dates of another
 * realm, which fail `instanceof Date`.
 */
export function copy<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Array.isArray(value)) return value.map(copy) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copy(inner)])) as T;
  }
  return value;
}
