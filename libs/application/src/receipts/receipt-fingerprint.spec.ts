import { imageHashDistance, sameReceipt } from '@app/domain';
import { receiptImage } from '@app/testing';
import sharp from 'sharp';
import { imageReceiptFingerprint, RECEIPT_IMAGE_MAX_PIXELS } from './receipt-fingerprint';

describe('imageReceiptFingerprint', () => {
  it('is the same for the same picture with bytes appended', async () => {
    const png = await receiptImage({ seed: 7 });
    const fingerprint = await imageReceiptFingerprint(png);

    expect(fingerprint).toMatch(/^phash:[0-9a-f]{16}$/);
    expect(await imageReceiptFingerprint(Buffer.concat([png, Buffer.from([0x0a, 0x0a])]))).toBe(fingerprint);
  });

  it('takes the same picture encoded as a JPEG for the same receipt', async () => {
    const png = await imageReceiptFingerprint(await receiptImage({ seed: 7 }));
    const jpeg = await imageReceiptFingerprint(await receiptImage({ seed: 7, format: 'jpeg', quality: 60 }));

    expect(sameReceipt(png!, jpeg!)).toBe(true);
  });

  it('tells receipts of other purchases apart', async () => {
    const fingerprints = await Promise.all(
      [1, 2, 3, 4, 5].map(async (seed) => imageReceiptFingerprint(await receiptImage({ seed }))),
    );
    for (const [i, a] of fingerprints.entries()) {
      for (const b of fingerprints.slice(i + 1)) expect(imageHashDistance(a!, b!)).toBeGreaterThan(4);
    }
  });

  it('has none for a file that does not decode, or one of more pixels than it decodes', async () => {
    // Just over RECEIPT_IMAGE_MAX_PIXELS: a plain white picture, a small file.
    const width = 7_500;
    const height = Math.ceil(RECEIPT_IMAGE_MAX_PIXELS / width) + 1;
    const huge = await sharp(Buffer.alloc(width * height, 255), { raw: { width, height, channels: 1 } })
      .png({ compressionLevel: 1 })
      .toBuffer();

    expect(await imageReceiptFingerprint(Buffer.from('\x89PNG\r\n\x1a\nnot really', 'latin1'))).toBeNull();
    expect(await imageReceiptFingerprint(huge)).toBeNull();
  });
});
