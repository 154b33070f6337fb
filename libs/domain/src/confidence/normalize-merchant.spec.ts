import fc from 'fast-check';
import { aMerchantAndVariant, DISTINCT_MERCHANTS } from '@app/testing';
import { normalizeMerchant } from './normalize-merchant';

describe('normalizeMerchant', () => {
  it.each([
    // case, whitespace, punctuation, legal suffixes
    ['SPOTIFY AB', 'spotify'],
    ['Spotify  ab.', 'spotify'],
    ['spotify', 'spotify'],
    ['  Spotify\tAB  ', 'spotify'],
    ['Spotify AB (publ)', 'spotify'],
    ['Telenor Norge AS', 'telenor norge'],
    ['Equinor ASA', 'equinor'],
    ['Acme Ltd.', 'acme'],
    ['Acme GmbH', 'acme'],
    ['Acme, Inc.', 'acme'],
    ['Acme LLC', 'acme'],
    ['Fazer Oy', 'fazer'],
    ['Netto ApS', 'netto'],
    ['Netto A/S', 'netto'],
    ['Carrefour S.A.', 'carrefour'],
    ['Booking.com B.V.', 'booking com'],
    ['Google Ireland NUF', 'google ireland'],
    ['Hansen & Co DA', 'hansen'],
    ['Olsen ANS', 'olsen'],
    ['Acme Co Ltd', 'acme'],
    // diacritics and Nordic letters
    ['Grünerløkka Kaffe', 'grunerlokka kaffe'],
    ['Bæreposen Økern', 'baereposen okern'],
    ['Ålesund Sjømat', 'alesund sjomat'],
    ['Café Åpent', 'cafe apent'],
    ['Straße GmbH', 'strasse'],
    // apostrophes and other punctuation
    ["Applebee's", 'applebees'],
    ['McDonald’s', 'mcdonalds'],
    ['H&M', 'h m'],
    ['7-Eleven', '7 eleven'],
    // card-descriptor noise
    ['VIPPS*Spotify *1234', 'spotify'],
    ['Vipps *Spotify', 'spotify'],
    ['PAYPAL *SPOTIFY', 'spotify'],
    ['PAYPAL *SPOTIFY AB', 'spotify'],
    ['PP*Spotify', 'spotify'],
    ['SQ *BLUE BOTTLE COFFEE', 'blue bottle coffee'],
    ['IZ *Kaffebrenneriet', 'kaffebrenneriet'],
    ['SumUp *Fiskeriet', 'fiskeriet'],
    ['Zettle_*Bakeriet', 'bakeriet'],
    ['Spotify xxxx1234', 'spotify'],
    ['Spotify **** **** 1234', 'spotify'],
    // store numbers
    ['Rema 1000 Grünerløkka 123', 'rema 1000 grunerlokka'],
    ['REMA 1000 GRUNERLOKKA', 'rema 1000 grunerlokka'],
    ['Rema1000 Grünerløkka', 'rema 1000 grunerlokka'],
    ['Coop Extra #4521', 'coop extra'],
    ['Circle K nr 123', 'circle k'],
    ['Circle K nr. 123 Storo', 'circle k storo'],
    ['Circle K 1234', 'circle k'],
    ['Narvesen Oslo S 4567 8901', 'narvesen oslo s'],
    // card statements: the merchant's own `*` and what follows it
    ['SPOTIFY AB *P2B9C1X', 'spotify'],
    ['Spotify AB*P2B9C1X', 'spotify'],
    ['UBER *TRIP 7XK2', 'uber'],
    ['UBER *TRIP HELP.UBER.COM', 'uber'],
    ['UBER *EATS', 'uber eats'],
    ['UBER* EATS 7XK2', 'uber eats'],
    ['UBER *EATS PENDING', 'uber eats'],
    ['GOOGLE *ADS4839', 'google ads'],
    ['WIDEROE', 'widero'],
    ['Widerøe', 'widero'],
    ['GOOGLE *GSUITE', 'google gsuite'],
    ['PAYPAL *SPOTIFY 4029357733', 'spotify'],
    ['SP * KAFFEBRENNERIET', 'kaffebrenneriet'],
    ['TST* Peppes Pizza', 'peppes pizza'],
    ['KLARNA*ZALANDO', 'zalando'],
    ['AMZN Mktp US*2K4L', 'amzn mktp us'],
    ['NETFLIX.COM 866579 NO', 'netflix com no'],
    // reference codes and long numbers after the name
    ['Spotify P2B9C1X', 'spotify'],
    ['Elkjøp 4029357733 Storo', 'elkjop storo'],
    // Norwegian letters as terminals without them write them
    ['AALESUND SJOMAT', 'alesund sjomat'],
    ['BAEREPOSEN OEKERN', 'baereposen okern'],
    ['ELKJOEP', 'elkjop'],
    ['Elkjøp', 'elkjop'],
  ])('%p → %p', (name, key) => {
    expect(normalizeMerchant(name)).toBe(key);
  });

  it.each([
    ['Rema 1000', 'rema 1000'],
    ['REMA 1000 AS', 'rema 1000'],
    ['Forever 21', 'forever 21'],
    ['Kiwi 345', 'kiwi 345'],
    ['1881', '1881'],
  ])('keeps a number that belongs to the brand: %p → %p', (name, key) => {
    expect(normalizeMerchant(name)).toBe(key);
  });

  it.each([
    ['AS', 'as'],
    ['Vipps AS', 'vipps'],
    ['Co', 'co'],
  ])('never strips a name down to nothing: %p → %p', (name, key) => {
    expect(normalizeMerchant(name)).toBe(key);
  });

  it.each(['', '   ', '*1234', '---'])('gives an empty key for %p, which has no name in it', (name) => {
    expect(normalizeMerchant(name)).toBe('');
  });

  it.each([
    ['Uber', 'Uber Eats'],
    ['Telenor', 'Telia'],
    ['Apple', "Applebee's"],
    ['Rema 1000', 'Rema 2000'],
    ['Rema 1000 Storo', 'Rema 1000 Majorstuen'],
    ['UBER *TRIP 7XK2', 'UBER *EATS 7XK2'],
    ['Telia Norge AS', 'Telia Sverige AB'],
    ['GOOGLE *ADS', 'GOOGLE *GSUITE'],
    ['Rema1000', 'Rema 1000 Storo'],
    ['Kiwi 345', 'Kiwi'],
  ])('keeps different merchants apart: %p ≠ %p', (a, b) => {
    expect(normalizeMerchant(a)).not.toBe(normalizeMerchant(b));
  });

  it('is idempotent on its own output', () => {
    for (const name of [
      'VIPPS*Spotify *1234',
      'Rema 1000 Grünerløkka 123',
      'Carrefour S.A.',
      "Applebee's",
      'Kiwi 345',
    ]) {
      const key = normalizeMerchant(name);
      expect(normalizeMerchant(key)).toBe(key);
    }
  });

  describe('properties', () => {
    const merchantAndVariant = aMerchantAndVariant();

    it('gives every variant of a merchant the key of its plain name', () => {
      fc.assert(
        fc.property(merchantAndVariant, ([name, variant]) => {
          expect(normalizeMerchant(variant)).toBe(normalizeMerchant(name));
        }),
        { numRuns: 2000 },
      );
    });

    it('keeps the merchants of a realistic list apart, whichever way each is written', () => {
      const keys = new Set(DISTINCT_MERCHANTS.map((name) => normalizeMerchant(name)));
      expect(keys.size).toBe(DISTINCT_MERCHANTS.length);
      fc.assert(
        fc.property(merchantAndVariant, merchantAndVariant, ([a, variantA], [b, variantB]) => {
          fc.pre(a !== b);
          expect(normalizeMerchant(variantA)).not.toBe(normalizeMerchant(variantB));
        }),
        { numRuns: 2000 },
      );
    });

    it('is idempotent on any text', () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.string({ maxLength: 40, unit: fc.constantFrom(..."aeoøåæAEOØÅ* #.-'1234567890xXsS") }),
            merchantAndVariant.map(([, variant]) => variant),
          ),
          (name) => {
            const key = normalizeMerchant(name);
            expect(normalizeMerchant(key)).toBe(key);
          },
        ),
        { numRuns: 2000 },
      );
    });
  });
});
