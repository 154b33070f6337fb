import { imageReceiptProblem } from '@app/application';
import { ProviderError, type ProviderKind, type Receipt } from '@app/domain';
import { convertImage } from './image-conversion';

/** Who a receipt is for: the provider, and the file types it takes as a booking's attachment (its definition's). */
export interface ReceiptTarget {
  readonly provider: ProviderKind;
  /** Among `application/pdf`, `image/png`, `image/jpeg`, `image/gif`, `image/tiff`; PNG at least. */
  readonly receiptTypes: readonly string[];
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/tiff': 'tif',
  'image/webp': 'webp',
};

/** The type the file's first bytes show, whatever it was declared as; undefined when unknown. */
function sniffReceiptType(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 12)).toString('latin1');
  if (head.startsWith('%PDF-')) return 'application/pdf';
  if (head.startsWith('\x89PNG\r\n\x1a\n')) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) return 'image/gif';
  if (head.startsWith('II*\x00') || head.startsWith('MM\x00*')) return 'image/tiff';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** `name` with the extension of `contentType` in place of its own: `IMG_01.webp` → `IMG_01.png`. */
function filenameFor(name: string, contentType: string): string {
  const extension = EXTENSIONS[contentType] ?? 'bin';
  const base = name.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim() || 'kvittering';
  return `${base}.${extension}`;
}

/**
 * The receipt as the provider takes it, decided by its content: kept when the provider takes its
 * type, else converted with sharp (libvips) — every page or frame stacked into one PNG, photos
 * (WebP) into JPEG — before anything is booked, so that a receipt the provider cannot take never
 * leaves a booking behind without its attachment. The filename's extension follows the type.
 * A file that cannot be read or converted, or whose header declares more than MAX_RECEIPT_PIXELS or
 * MAX_RECEIPT_PAGES, is a permanent `ProviderError`; the conversion runs in a process of its own,
 * bounded in pixels and time (`convertImage`).
 */
export async function receiptFor(to: ReceiptTarget, receipt: Receipt): Promise<Receipt> {
  const { provider, receiptTypes: accepted } = to;
  const actual = sniffReceiptType(receipt.bytes);
  if (actual !== undefined && accepted.includes(actual)) {
    return { filename: filenameFor(receipt.filename, actual), contentType: actual, bytes: receipt.bytes };
  }
  if (actual === undefined || actual === 'application/pdf') {
    throw new ProviderError(
      provider,
      'rejected',
      `the receipt (${receipt.contentType}) is not a file ${provider} takes (${accepted.join(', ')}) and cannot be converted`,
    );
  }
  const target = actual === 'image/webp' ? 'image/jpeg' : 'image/png';
  // Judged again here: a receipt stored before the bounds were checked at intake may exceed them.
  const problem = await imageReceiptProblem(receipt.bytes);
  if (problem !== undefined) {
    throw new ProviderError(provider, 'rejected', `the receipt (${actual}) is refused: the image ${problem}`);
  }
  try {
    const bytes = await convertImage(receipt.bytes, target === 'image/jpeg' ? 'jpeg' : 'png');
    return { filename: filenameFor(receipt.filename, target), contentType: target, bytes };
  } catch (error) {
    throw new ProviderError(
      provider,
      'rejected',
      `the receipt (${actual}) could not be converted to ${target} for ${provider}: ${(error as Error).message}`,
    );
  }
}
