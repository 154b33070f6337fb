import { MAX_RECEIPT_PAGES, MAX_RECEIPT_PIXELS, receiptImageProblem, type ReceiptImageSize } from './receipt-image';

const rgb = (size: Pick<ReceiptImageSize, 'width' | 'height' | 'pages'>): ReceiptImageSize => ({
  ...size,
  channels: 3,
  bitsPerSample: 8,
});

describe('receiptImageProblem (the bounds of an image receipt)', () => {
  it.each([
    ['a phone photo of 48 MP', { width: 8064, height: 6048, pages: 1 }],
    ['exactly the pixel bound', { width: MAX_RECEIPT_PIXELS / 1000, height: 1000, pages: 1 }],
    ['a scan of 20 A4 pages at 150 dpi', { width: 1240, height: 1754, pages: MAX_RECEIPT_PAGES }],
  ])('takes %s', (_label, size) => {
    expect(receiptImageProblem(rgb(size))).toBeUndefined();
  });

  it.each([
    [
      'one pixel over the bound',
      { width: MAX_RECEIPT_PIXELS + 1, height: 1, pages: 1 },
      /declares 50000001 × 1 pixels, more than 50 megapixels/,
    ],
    ['pages that together exceed it', { width: 2480, height: 3508, pages: 6 }, /declares 2480 × 3508 pixels × 6 pages/],
    [
      'one page more than the bound',
      { width: 1, height: 1, pages: MAX_RECEIPT_PAGES + 1 },
      /^has 21 pages or frames, more than 20$/,
    ],
  ])('refuses %s', (_label, size, problem) => {
    expect(receiptImageProblem(rgb(size))).toMatch(problem);
  });

  it('refuses samples that would take more than 200 MB decoded, and takes 16-bit colour of 25 MP', () => {
    const photo = { width: 6000, height: 4000, pages: 1, channels: 4 };
    expect(receiptImageProblem({ ...photo, bitsPerSample: 16 })).toBeUndefined();
    expect(receiptImageProblem({ ...photo, bitsPerSample: 32 })).toBe(
      'declares 24000000 pixels of 4 × 32-bit samples, more than 200 MB decoded',
    );
  });
});
