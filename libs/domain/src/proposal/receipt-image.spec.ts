import { MAX_RECEIPT_PAGES, MAX_RECEIPT_PIXELS, receiptImageProblem } from './receipt-image';

describe('receiptImageProblem (the bounds of an image receipt)', () => {
  it.each([
    ['a phone photo of 48 MP', { width: 8064, height: 6048, pages: 1 }],
    ['exactly the pixel bound', { width: MAX_RECEIPT_PIXELS / 1000, height: 1000, pages: 1 }],
    ['a scan of 20 A4 pages at 150 dpi', { width: 1240, height: 1754, pages: MAX_RECEIPT_PAGES }],
  ])('takes %s', (_label, size) => {
    expect(receiptImageProblem(size)).toBeUndefined();
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
    expect(receiptImageProblem(size)).toMatch(problem);
  });
});
