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
});
