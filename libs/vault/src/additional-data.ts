/**
 * Canonical, unambiguous encoding of the additional authenticated data: every field as a 4-byte
 * big-endian length followed by its UTF-8 bytes. ("ab","c") and ("a","bc") can never collide.
 */
export function encodeAdditionalData(fields: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (const field of fields) {
    const bytes = Buffer.from(field, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}

/** Label of the token format; a new format gets a new label, so old and new can never be confused. */
export const TOKEN_AAD_LABEL = 'accounting-api/provider-token/v1';

/** The additional data a provider token is sealed under: it binds company, provider and purpose. */
export function tokenAdditionalData(companyId: string, provider: string, purpose: string): Buffer {
  return encodeAdditionalData([TOKEN_AAD_LABEL, companyId, provider, purpose]);
}
