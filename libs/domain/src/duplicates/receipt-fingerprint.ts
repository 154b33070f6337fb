/**
 * A receipt's fingerprint: what stays the same when the file's bytes change but the receipt does
 * not (a byte appended, metadata rewritten, an image re-encoded). Computed at intake from the
 * bytes by the application (docs/trust.md "Duplicates") and stored with the proposal:
 *
 * - an image: `phash:` and the 16 hex digits of the 64-bit perceptual hash (DCT) of its pixels;
 *   two images are the same picture when at most RECEIPT_IMAGE_HASH_MAX_DISTANCE bits differ (the
 *   duplicate rules also ask for close dates: two receipts of one template can hash alike);
 * - a PDF: `pdf:` and the hex SHA-256 of its pages' decoded content, normalised; equal or not.
 */
export type ReceiptFingerprint = string;

/**
 * How many of the 64 bits of two images' perceptual hashes may differ for them to be the same
 * picture. Appended bytes move a pHash by nothing, re-encoding or resizing by 0–3 bits; unrelated
 * photos differ by about half of them. Photos of two receipts printed from one template can come
 * as close, so the duplicate rules ask for close dates as well (possible-duplicates.ts).
 */
export const RECEIPT_IMAGE_HASH_MAX_DISTANCE = 4;

const IMAGE = /^phash:[0-9a-f]{16}$/;
const PDF = /^pdf:[0-9a-f]{64}$/;

/** The fingerprint of an image from its 64-bit perceptual hash as 64 characters `0`/`1`. */
export function imageFingerprint(bits: string): ReceiptFingerprint {
  if (!/^[01]{64}$/.test(bits)) throw new RangeError('a perceptual hash has 64 bits');
  return `phash:${BigInt(`0b${bits}`).toString(16).padStart(16, '0')}`;
}

/** The fingerprint of a PDF from the hex SHA-256 of its normalised page content. */
export function pdfFingerprint(contentSha256: string): ReceiptFingerprint {
  const fingerprint = `pdf:${contentSha256}`;
  if (!PDF.test(fingerprint)) throw new RangeError('a PDF fingerprint is a hex SHA-256');
  return fingerprint;
}

/** Whether `fingerprint` is a PDF's. */
export function isPdfFingerprint(fingerprint: ReceiptFingerprint): boolean {
  return PDF.test(fingerprint);
}

/** Whether two fingerprints are of the same receipt: equal, or two images' hashes close enough. */
export function sameReceipt(a: ReceiptFingerprint, b: ReceiptFingerprint): boolean {
  if (IMAGE.test(a) && IMAGE.test(b)) return imageHashDistance(a, b) <= RECEIPT_IMAGE_HASH_MAX_DISTANCE;
  return a === b;
}

/** How many bits of two image fingerprints' hashes differ. */
export function imageHashDistance(a: ReceiptFingerprint, b: ReceiptFingerprint): number {
  let diff = BigInt(`0x${a.slice('phash:'.length)}`) ^ BigInt(`0x${b.slice('phash:'.length)}`);
  let bits = 0;
  for (; diff > 0n; diff >>= 1n) bits += Number(diff & 1n);
  return bits;
}
