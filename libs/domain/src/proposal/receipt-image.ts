/**
 * The largest image receipt the service takes, in pixels of all its pages or frames together. A
 * phone's full-resolution photo (48 MP) fits; decoded, the largest receipt is about 200 MB of
 * 8-bit RGBA, which bounds what converting one for a provider can cost. A file's size says nothing
 * of this: a few dozen bytes of WebP or GIF can declare 16383 × 16383 pixels.
 */
export const MAX_RECEIPT_PIXELS = 50_000_000;
/** The most pages (TIFF) or frames (GIF, WebP) an image receipt may have: a long scan, not a film. */
export const MAX_RECEIPT_PAGES = 20;

/** What an image's header declares: the size of one page, and how many pages (1 when it does not say). */
export interface ReceiptImageSize {
  readonly width: number;
  readonly height: number;
  readonly pages: number;
}

/** Why an image of `size` is larger than a receipt may be, or undefined when it is within the bounds. */
export function receiptImageProblem(size: ReceiptImageSize): string | undefined {
  const { width, height, pages } = size;
  if (pages > MAX_RECEIPT_PAGES) return `has ${pages} pages or frames, more than ${MAX_RECEIPT_PAGES}`;
  const pixels = width * height * pages;
  if (pixels > MAX_RECEIPT_PIXELS) {
    return `declares ${width} × ${height} pixels${pages > 1 ? ` × ${pages} pages` : ''}, more than ${MAX_RECEIPT_PIXELS / 1_000_000} megapixels`;
  }
  return undefined;
}
