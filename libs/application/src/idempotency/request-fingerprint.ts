import { createHash } from 'node:crypto';

/**
 * Canonical JSON of a request: object keys sorted, members whose value is null or absent left out
 * (so `"resubmissionOf": null` and no `resubmissionOf` are the same request), arrays kept in order.
 * Two requests are "the same body" when their canonical forms are equal, whatever the key order or
 * whitespace the client sent.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== null && inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Lowercase hex SHA-256 of the canonical JSON of a request. */
export function requestFingerprint(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request), 'utf8').digest('hex');
}
