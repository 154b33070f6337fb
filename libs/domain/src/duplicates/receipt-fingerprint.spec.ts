import fc from 'fast-check';
import {
  imageFingerprint,
  imageHashDistance,
  isPdfFingerprint,
  pdfFingerprint,
  RECEIPT_IMAGE_HASH_MAX_DISTANCE,
  sameReceipt,
} from './receipt-fingerprint';

describe('receipt fingerprints', () => {
  it('writes an image hash of 64 bits as 16 hex digits, and refuses anything else', () => {
    expect(imageFingerprint(`${'0'.repeat(60)}1111`)).toBe('phash:000000000000000f');
    expect(imageFingerprint(`1${'0'.repeat(63)}`)).toBe('phash:8000000000000000');
    expect(() => imageFingerprint('0101')).toThrow(RangeError);
  });

  it('writes a PDF content hash, and refuses one that is not a SHA-256', () => {
    expect(pdfFingerprint('a'.repeat(64))).toBe(`pdf:${'a'.repeat(64)}`);
    expect(() => pdfFingerprint('xyz')).toThrow(RangeError);
  });

  it('counts the bits two image hashes differ by', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        (a, b) => {
          const bits = (xs: boolean[]) => xs.map((x) => (x ? '1' : '0')).join('');
          const expected = a.filter((x, i) => x !== b[i]).length;
          return imageHashDistance(imageFingerprint(bits(a)), imageFingerprint(bits(b))) === expected;
        },
      ),
    );
  });

  it('takes two images within RECEIPT_IMAGE_HASH_MAX_DISTANCE bits for one receipt, a PDF only when equal', () => {
    expect(RECEIPT_IMAGE_HASH_MAX_DISTANCE).toBe(4);
    expect(sameReceipt('phash:00000000000000ff', 'phash:000000000000000f')).toBe(true);
    expect(sameReceipt('phash:00000000000000ff', 'phash:0000000000000007')).toBe(false);
    expect(sameReceipt(`pdf:${'a'.repeat(64)}`, `pdf:${'a'.repeat(64)}`)).toBe(true);
    expect(sameReceipt(`pdf:${'a'.repeat(64)}`, `pdf:${'a'.repeat(63)}b`)).toBe(false);
    expect(sameReceipt('phash:00000000000000ff', `pdf:${'0'.repeat(64)}`)).toBe(false);
    expect(isPdfFingerprint(`pdf:${'a'.repeat(64)}`)).toBe(true);
    expect(isPdfFingerprint('phash:00000000000000ff')).toBe(false);
  });
});
