import sharp from 'sharp';
import { MAX_RECEIPT_PAGES, ProviderError } from '@app/domain';
import { gifDeclaring, webpDeclaring } from '@app/testing';
import { convertImage } from './image-conversion';
import { receiptFor, type ReceiptTarget } from './receipt-format';

/** Tripletex's attachment types: PDF, PNG, JPEG and TIFF (a GIF is converted). */
const TRIPLETEX: ReceiptTarget = {
  provider: 'tripletex',
  receiptTypes: ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff'],
};

describe('receiptFor (a receipt converted for the provider, within bounds)', () => {
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'converted',
      (error: unknown) => error,
    );

  it('converts every frame of an ordinary GIF into one PNG for Tripletex', async () => {
    // Three frames of 40 × 30, each of another grey (a GIF encoder merges identical frames).
    const pixels = Buffer.alloc(40 * 90 * 3);
    pixels.forEach((_, i) => (pixels[i] = Math.floor(i / (40 * 30 * 3)) * 100));
    const gif = await sharp(pixels, { raw: { width: 40, height: 90, channels: 3, pageHeight: 30 } })
      .gif()
      .toBuffer();

    const converted = await receiptFor(TRIPLETEX, { filename: 'k.gif', contentType: 'image/gif', bytes: gif });

    expect(converted).toMatchObject({ filename: 'k.png', contentType: 'image/png' });
    expect(await sharp(converted.bytes).metadata()).toMatchObject({ format: 'png', width: 40, height: 90 });
  });

  it.each([
    [
      'a WebP declaring 16383 × 16383 pixels',
      'image/webp',
      webpDeclaring(16383, 16383),
      /declares 16383 × 16383 pixels/,
    ],
    ['a WebP just over 50 megapixels', 'image/webp', webpDeclaring(8000, 6300), /declares 8000 × 6300 pixels/],
    ['a GIF of 16000 × 16000 pixels', 'image/gif', gifDeclaring(16000, 16000), /declares 16000 × 16000 pixels/],
    ['a GIF of 10 frames of 4000 × 2000', 'image/gif', gifDeclaring(4000, 2000, 10), /× 10 pages/],
    ['a GIF of more frames than the bound', 'image/gif', gifDeclaring(10, 10, MAX_RECEIPT_PAGES + 1), /21 pages/],
  ])('refuses %s stored before intake judged it, without decoding it', async (_label, contentType, bytes, why) => {
    const error = await refusal(receiptFor(TRIPLETEX, { filename: 'k', contentType, bytes }));

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_error', transient: false, message: expect.stringMatching(why) });
  });

  describe('convertImage (the bounded converter process)', () => {
    it('stops at the pixel bound a file whose pages together exceed it, whatever its header was judged', async () => {
      await expect(convertImage(gifDeclaring(4000, 2000, 10), 'png')).rejects.toThrow(/pixel limit/);
    });

    it('kills a conversion that overruns its deadline', async () => {
      const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3c3' } })
        .webp()
        .toBuffer();

      await expect(convertImage(photo, 'jpeg', 1)).rejects.toThrow(/did not finish within 1 ms/);
      expect(await sharp(await convertImage(photo, 'jpeg')).metadata()).toMatchObject({ format: 'jpeg', width: 400 });
    });
  });
});
