/** Small readers for untyped provider JSON: tolerant of missing fields, never throwing. */
export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown, fallback = ''): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return String(value);
  }
  return fallback;
}

export function asOptionalString(value: unknown): string | null {
  const text = asString(value);
  return text === '' ? null : text;
}

export function asNumber(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
}

/**
 * The objects of one page of a provider's list, each released from the page as it is handed out.
 * A paging generator is suspended while its consumer works and while it fetches the next page;
 * without the release it would keep the whole parsed page alive meanwhile (500 Fiken companies
 * paced at 4 requests/s would hold 500 pages for most of a daily check).
 */
export function* drainPage(page: unknown[]): Generator<Json> {
  for (let i = 0; i < page.length; i++) {
    const item = page[i];
    page[i] = undefined;
    yield asObject(item);
  }
}

/**
 * One page of a provider's list turned into what the caller keeps (`map` answers `undefined` to
 * skip an item), in one synchronous pass that empties the page as it goes: the parsed page is
 * garbage before anything else runs, however long its paging generator stays suspended, and a
 * consumer waiting for the next page holds only the few fields it keeps. (Handed out item by item,
 * every page in flight stayed alive across the consumers' awaits.)
 */
export function mapPage<T>(page: unknown[], map: (item: Json) => T | undefined): T[] {
  const mapped: T[] = [];
  for (let i = 0; i < page.length; i++) {
    const item = map(asObject(page[i]));
    page[i] = undefined;
    if (item !== undefined) mapped.push(item);
  }
  page.length = 0;
  return mapped;
}
