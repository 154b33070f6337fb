import sharp from 'sharp';
import { RECEIPT_CONTENT_TYPES, receiptImageProblem } from '@app/domain';

/**
 * Whether `contentType` is one of the image types a receipt may have. Only their headers are read:
 * the decoders of other types (SVG, HEIC) are never handed an upload.
 */
export function isImageReceiptType(contentType: string): boolean {
  return contentType.startsWith('image/') && (RECEIPT_CONTENT_TYPES as readonly string[]).includes(contentType);
}

/** The width of one sample of each of libvips' band formats. */
const BITS_PER_SAMPLE: Readonly<Record<sharp.Metadata['depth'], number>> = {
  uchar: 8,
  char: 8,
  ushort: 16,
  short: 16,
  uint: 32,
  int: 32,
  float: 32,
  complex: 64,
  double: 64,
  dpcomplex: 128,
};

/**
 * Why an image receipt is not one the service takes, judged from its header, or undefined: a
 * header that does not read, or dimensions and a page count beyond the bounds of
 * `receiptImageProblem` (MAX_RECEIPT_PIXELS, MAX_RECEIPT_PAGES, MAX_RECEIPT_DECODED_BYTES).
 *
 * sharp's `metadata()` reads the header (counting a GIF's frames or a TIFF's pages) and decodes no
 * pixel, so a file declaring billions of pixels costs what its bytes cost; the work runs on
 * libvips' threads, not the event loop. The pixel limit is lifted here only so that the declared
 * size can be reported: it is judged right after.
 */
export async function imageReceiptProblem(bytes: Uint8Array): Promise<string | undefined> {
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return 'cannot be read as an image';
  }
  const { width, height, pages, channels, depth } = metadata;
  if (!width || !height) return 'cannot be read as an image';
  return receiptImageProblem({ width, height, pages: pages ?? 1, channels, bitsPerSample: BITS_PER_SAMPLE[depth] });
}
