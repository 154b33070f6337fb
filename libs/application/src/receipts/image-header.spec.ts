import sharp from 'sharp';
import { MAX_RECEIPT_PAGES } from '@app/domain';
import { gifDeclaring, pngDeclaring, tiffDeclaring, webpDeclaring } from '@app/testing';
import { imageReceiptProblem } from './image-header';

describe('imageReceiptProblem (the image receipt bounds at intake)', () => {
  const ordinary = (format: 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff') =>
    sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#eee' } })
      .toFormat(format)
      .toBuffer();

  it.each(['jpeg', 'png', 'webp', 'gif', 'tiff'] as const)(
    'takes an ordinary %s photo of a receipt',
    async (format) => {
      expect(await imageReceiptProblem(await ordinary(format))).toBeUndefined();
    },
  );

  it('takes a full-resolution phone photo (48 MP) and a GIF of as many frames as the bound', async () => {
    expect(await imageReceiptProblem(webpDeclaring(8000, 6000))).toBeUndefined();
    expect(await imageReceiptProblem(gifDeclaring(100, 100, MAX_RECEIPT_PAGES))).toBeUndefined();
  });

  it.each([
    [
      'a 38-byte WebP of 16383 × 16383',
      webpDeclaring(16383, 16383),
      /^declares 16383 × 16383 pixels, more than 50 megapixels$/,
    ],
    ['a WebP just over the bound', webpDeclaring(8000, 6300), /^declares 8000 × 6300 pixels/],
    ['a GIF of 16000 × 16000', gifDeclaring(16000, 16000), /^declares 16000 × 16000 pixels/],
    ['a PNG of 100000 × 100000', pngDeclaring(100_000, 100_000), /^declares 100000 × 100000 pixels/],
    ['a GIF of 21 frames', gifDeclaring(10, 10, MAX_RECEIPT_PAGES + 1), /^has 21 pages or frames, more than 20$/],
    ['a GIF of 2000 frames', gifDeclaring(10, 10, 2000), /^has 2000 pages or frames/],
    ['a GIF of 10 frames of 4000 × 2000', gifDeclaring(4000, 2000, 10), /^declares 4000 × 2000 pixels × 10 pages/],
    ['a TIFF of 32-bit samples', tiffDeclaring(8000, 4000, 4, 32), /^declares 32000000 pixels of 4 × 32-bit samples/],
    ['a PNG signature and garbage', Buffer.from('\x89PNG\r\n\x1a\n garbage', 'latin1'), /^cannot be read as an image$/],
  ])('refuses %s, judged from its header', async (_label, bytes, problem) => {
    expect(await imageReceiptProblem(bytes)).toMatch(problem);
  });
});
