import fc from 'fast-check';
import { bookingText, fitText, MAX_VOUCHER_TEXT, readableReference, referencedText } from './booking-text';

describe('bookingText', () => {
  it('says merchant: description, or the merchant alone without a description', () => {
    expect(bookingText({ merchant: 'Spotify AB', description: 'Spotify Premium' })).toBe('Spotify AB: Spotify Premium');
    expect(bookingText({ merchant: 'Spotify AB', description: null })).toBe('Spotify AB');
    expect(bookingText({ merchant: 'Spotify AB', description: 'Spotify AB' })).toBe('Spotify AB');
  });
});

describe('fitText', () => {
  it('keeps a text that fits', () => {
    expect(fitText('Kontorstol', 200)).toBe('Kontorstol');
    expect(fitText('x'.repeat(200), 200)).toBe('x'.repeat(200));
  });

  it('cuts at a word boundary near the end and marks the cut', () => {
    const text = `Clas Ohlson: ${'kabler og skjøter til møterommet '.repeat(10)}`;
    const fitted = fitText(text, 60);
    expect(Array.from(fitted)).toHaveLength(Array.from(fitted).length);
    expect(fitted.endsWith('…')).toBe(true);
    expect(Array.from(fitted).length).toBeLessThanOrEqual(60);
    expect(text.startsWith(fitted.slice(0, -1))).toBe(true);
    expect(fitted.slice(0, -1).endsWith(' ')).toBe(false);
  });

  it('never exceeds the limit, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), fc.integer({ min: 2, max: 300 }), (text, max) => {
        const fitted = fitText(text, max);
        expect(Array.from(fitted).length).toBeLessThanOrEqual(Math.max(max, Array.from(text).length <= max ? 0 : max));
        if (Array.from(text).length <= max) expect(fitted).toBe(text);
      }),
    );
  });
});

describe('referencedText', () => {
  const reference = '0b9f6c1e-3d2a-4c5b-9e8f-7a6b5c4d3e2f';

  it('puts the (ref …) marker first and keeps a short text whole', () => {
    expect(referencedText('Kiwi: lunsj', reference)).toBe(`(ref ${reference}) Kiwi: lunsj`);
  });

  it('fits a 1 250-character text into 255 characters without touching the marker', () => {
    const text = `${'Merchant AS '.repeat(20)}: ${'a long description of what was bought '.repeat(27)}`;
    expect(text.length).toBeGreaterThan(1_200);
    const fitted = referencedText(text, reference);
    expect(Array.from(fitted).length).toBeLessThanOrEqual(MAX_VOUCHER_TEXT);
    expect(fitted.startsWith(`(ref ${reference}) Merchant AS`)).toBe(true);
    expect(fitted.endsWith('…')).toBe(true);
    // Whatever Tripletex cuts from the end, the marker the lookup needs survives.
    expect(fitted.slice(0, 60)).toContain(`(ref ${reference})`);
  });
});

describe('readableReference', () => {
  it('is short, readable and stable for a reference', () => {
    const reference = '0190f1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';
    expect(readableReference(reference)).toMatch(/^P-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(readableReference(reference)).toBe(readableReference(reference));
    expect(readableReference(reference)).not.toBe(readableReference('0190f1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5c'));
  });

  it('differs between many references', () => {
    const seen = new Set(Array.from({ length: 20_000 }, (_, i) => readableReference(`proposal-${i}`)));
    expect(seen.size).toBe(20_000);
  });
});
