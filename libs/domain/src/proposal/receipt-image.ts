/**
 * The largest image receipt the service takes, in pixels of all its pages or frames together. A
 * phone's full-resolution photo (48 MP) fits; decoded, no receipt takes more than
 * MAX_RECEIPT_DECODED_BYTES, which bounds what converting one for a provider can cost. A file's size says nothing
 * of this: a few dozen bytes of WebP or GIF can declare 16383 × 16383 pixels.
 */
export const MAX_RECEIPT_PIXELS = 50_000_000;
/** The most pages (TIFF) or frames (GIF, WebP) an image receipt may have: a long scan, not a film. */
export const MAX_RECEIPT_PAGES = 20;
/**
 * The most an image receipt may take once decoded: MAX_RECEIPT_PIXELS of 8-bit RGBA. A TIFF may
 * carry five channels of 64-bit samples, ten times that for the same pixels; a receipt needs no
 * more than 16-bit colour, which this leaves room for up to 25 megapixels.
 */
export const MAX_RECEIPT_DECODED_BYTES = MAX_RECEIPT_PIXELS * 4;

/** What an image's header declares: the size of one page, how many pages (1 when it does not say), its samples. */
export interface ReceiptImageSize {
  readonly width: number;
  readonly height: number;
  readonly pages: number;
  /** Samples per pixel (3 for RGB, 4 for RGBA or CMYK). */
  readonly channels: number;
  readonly bitsPerSample: number;
}

/** Why an image of `size` is larger than a receipt may be, or undefined when it is within the bounds. */
export function receiptImageProblem(size: ReceiptImageSize): string | undefined {
  const { width, height, pages, channels, bitsPerSample } = size;
  if (pages > MAX_RECEIPT_PAGES) return `has ${pages} pages or frames, more than ${MAX_RECEIPT_PAGES}`;
  const pixels = width * height * pages;
  if (pixels > MAX_RECEIPT_PIXELS) {
    return `declares ${width} × ${height} pixels${pages > 1 ? ` × ${pages} pages` : ''}, more than ${MAX_RECEIPT_PIXELS / 1_000_000} megapixels`;
  }
  const decodedBytes = pixels * channels * Math.ceil(bitsPerSample / 8);
  if (decodedBytes > MAX_RECEIPT_DECODED_BYTES) {
    return `declares ${pixels} pixels of ${channels} × ${bitsPerSample}-bit samples, more than ${MAX_RECEIPT_DECODED_BYTES / 1_000_000} MB decoded`;
  }
  return undefined;
}
