import { createHash } from 'node:crypto';
import { invalidField, RECEIPT_CONTENT_TYPES, type ReceiptMetadata } from '@app/domain';

/** A receipt as the wire carries it (docs/api.md §4.1): the file, base64-encoded. */
export interface ReceiptUploadInput {
  readonly filename?: unknown;
  readonly contentType?: unknown;
  readonly dataBase64?: unknown;
}

export interface DecodedReceipt {
  /** What the domain validates and the Proposed event records. */
  readonly metadata: ReceiptMetadata;
  readonly bytes: Uint8Array;
}

type ReceiptContentType = (typeof RECEIPT_CONTENT_TYPES)[number];

function ascii(bytes: Uint8Array, from: number, length: number): string {
  return Buffer.from(bytes.subarray(from, from + length)).toString('latin1');
}

/**
 * Does the file start the way its declared type does? A receipt named `application/pdf` that is an
 * executable or a zip is refused before it is stored and later handed to a provider.
 */
const LOOKS_LIKE: Readonly<Record<ReceiptContentType, (bytes: Uint8Array) => boolean>> = {
  // The header at the very start (ISO 32000-2 §7.5.2): readers tolerate leading bytes, but a file
  // that begins as HTML or an executable (MZ) and carries `%PDF-` further on is a polyglot.
  'application/pdf': (bytes) => ascii(bytes, 0, 5) === '%PDF-',
  'image/jpeg': (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  'image/png': (bytes) => ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n',
  'image/gif': (bytes) => ['GIF87a', 'GIF89a'].includes(ascii(bytes, 0, 6)),
  'image/tiff': (bytes) => ['II*\x00', 'MM\x00*'].includes(ascii(bytes, 0, 4)),
  'image/webp': (bytes) => ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP',
};

function malformed(): never {
  return invalidField('receipt.dataBase64', 'must be the file encoded as standard base64 with padding');
}

function isReceiptContentType(value: unknown): value is ReceiptContentType {
  return typeof value === 'string' && (RECEIPT_CONTENT_TYPES as readonly string[]).includes(value);
}

/**
 * Decodes a receipt upload: strict base64, at most `maxBytes` decoded (the configured receipt
 * limit; the domain caps it at 7 MiB whatever the configuration), content matching the declared
 * type. Returns the bytes and the metadata (size, SHA-256) the domain validates; the filename and
 * the type list are checked by `parseExpenseDetails`.
 *
 * The size is judged first, from the string's length alone (4 characters carry 3 bytes), so an
 * oversized upload costs nothing more; the base64 is then checked in one linear pass: decoded and
 * encoded again, it must give back exactly the same text (standard alphabet, padding, no
 * whitespace) — no regular expression that could backtrack over megabytes.
 *
 * The signature is all it checks of the content; a PDF is then parsed by PdfCheck.
 */
export function decodeReceipt(upload: ReceiptUploadInput, maxBytes: number): DecodedReceipt {
  const data = upload.dataBase64;
  if (typeof data !== 'string' || data.length === 0) malformed();
  if (data.length > Math.ceil(maxBytes / 3) * 4) {
    invalidField('receipt', `must be at most ${maxBytes} bytes decoded`);
  }
  const decoded = data.length % 4 === 0 ? Buffer.from(data, 'base64') : undefined;
  if (decoded === undefined || decoded.toString('base64') !== data) malformed();
  if (decoded.byteLength > maxBytes) invalidField('receipt', `must be at most ${maxBytes} bytes decoded`);
  const bytes = new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength);
  if (isReceiptContentType(upload.contentType) && !LOOKS_LIKE[upload.contentType](bytes)) {
    invalidField('receipt.dataBase64', `is not a ${upload.contentType} file`);
  }
  return {
    bytes,
    metadata: {
      filename: typeof upload.filename === 'string' ? upload.filename : '',
      contentType: typeof upload.contentType === 'string' ? upload.contentType : '',
      sizeBytes: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  };
}
