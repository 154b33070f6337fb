import { imageFingerprint, type ReceiptFingerprint } from '@app/domain';
import phash from 'sharp-phash';

/**
 * The most pixels an image receipt may have for its fingerprint to be computed: a 50-megapixel
 * photo. sharp refuses a larger one before decoding it, so a small file declaring huge dimensions
 * costs nothing; such a receipt simply has no fingerprint (its SHA-256 still finds exact copies).
 */
export const RECEIPT_IMAGE_MAX_PIXELS = 50_000_000;

/**
 * The fingerprint of an image receipt (receipt-fingerprint.ts in the domain): sharp-phash's 64-bit
 * perceptual hash (the DCT of a 32 × 32 greyscale thumbnail that sharp decodes within
 * RECEIPT_IMAGE_MAX_PIXELS). Null when the image cannot be decoded: the receipt is then found by its
 * SHA-256 only, and the submission is neither refused nor delayed for it.
 */
export async function imageReceiptFingerprint(bytes: Uint8Array): Promise<ReceiptFingerprint | null> {
  try {
    return imageFingerprint(
      await phash(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        limitInputPixels: RECEIPT_IMAGE_MAX_PIXELS,
      }),
    );
  } catch {
    return null;
  }
}
