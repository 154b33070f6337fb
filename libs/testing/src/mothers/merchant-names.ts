import fc from 'fast-check';

/**
 * Merchants as a Norwegian company meets them: each a different business, look-alikes included on
 * purpose (Uber / Uber Eats, Telenor / Telia, Apple / Applebee's, Rema 1000 / Rema 1000 Storo,
 * Google Ads / Google Workspace). Normalisation must keep every one apart.
 */
export const DISTINCT_MERCHANTS = [
  'Spotify AB',
  'Uber',
  'Uber Eats',
  'Telenor Norge AS',
  'Telia Norge AS',
  'Telia Sverige AB',
  'Ice Communication Norge AS',
  'Apple',
  "Applebee's",
  'Rema 1000',
  'Rema 1000 Storo',
  'Rema 1000 Majorstuen',
  'Kiwi 345',
  'Kiwi',
  'Coop Extra',
  'Coop Prix',
  'Coop Mega',
  'Meny',
  'Joker',
  'Bunnpris',
  'Spar',
  'Narvesen',
  '7-Eleven',
  'Circle K',
  'Circle K Storo',
  'Esso',
  'Shell',
  'Deli de Luca',
  'Kaffebrenneriet',
  'Espresso House',
  'Starbucks',
  'Joe & The Juice',
  'Peppes Pizza',
  "McDonald's",
  'Burger King',
  'Vy',
  'Ruter',
  'Flytoget AS',
  'SAS',
  'Norwegian Air Shuttle ASA',
  'Widerøe',
  'Posten Norge AS',
  'Bring',
  'DHL Express',
  'Elkjøp',
  'Power',
  'Clas Ohlson',
  'Jernia',
  'Biltema',
  'Europris',
  'XXL',
  'Netflix',
  'Adobe Inc',
  'Slack Technologies',
  'Zoom Video Communications',
  'Dropbox',
  'Atlassian',
  'GitHub',
  'Figma',
  'Notion Labs',
  'Google Ads',
  'Google Workspace',
  'Amazon',
  'Amazon Web Services',
  'Microsoft',
  'Microsoft Azure',
  'Finn.no',
  'Vipps MobilePay',
  'Fjordkraft',
  'Tibber',
  'Hafslund',
  'Altibox',
  'Tripletex',
  'Fiken',
  'Visma',
  'Bæreposen Økern',
  'Ålesund Sjømat',
  'Grünerløkka Kaffe',
  'Kjøkkenskapet',
  'Sjøhuset',
  'Åpent Bakeri',
  'Hansen & Co DA',
  'Olsen ANS',
  'Equinor ASA',
  'Booking.com',
  'Hotels.com',
  'Airbnb',
  'Scandic Hotels',
  'Thon Hotels',
  'Nordic Choice Hotels',
] as const;

const letter = fc.constantFrom(...'abcdefghjkmnpqrstuvwxyz');
const digit = fc.constantFrom(...'0123456789');
/** A statement's reference code: letter–digit pairs ("a1b2", "p2b9c1"). */
const referenceCode = fc
  .array(fc.tuple(letter, digit), { minLength: 2, maxLength: 5 })
  .map((pairs) => pairs.map(([l, d]) => l + d).join(''));
const casing = fc.constantFrom(
  (text: string) => text,
  (text: string) => text.toUpperCase(),
  (text: string) => text.toLowerCase(),
);
/** How a terminal without Norwegian letters writes them. */
const transliteration = fc.constantFrom(
  (text: string) => text,
  (text: string) => text.replace(/ø/g, 'oe').replace(/Ø/g, 'OE').replace(/å/g, 'aa').replace(/Å/g, 'AA'),
  (text: string) => text.replace(/ø/g, 'o').replace(/Ø/g, 'O').replace(/å/g, 'a').replace(/Å/g, 'A'),
  (text: string) => text.replace(/æ/g, 'ae').replace(/Æ/g, 'AE'),
);
const prefix = fc.constantFrom(
  '',
  'VIPPS*',
  'Vipps *',
  'PAYPAL *',
  'PP*',
  'SQ *',
  'SP * ',
  'TST* ',
  'IZ *',
  'SumUp *',
  'Zettle_*',
  'KLARNA*',
);
const legalForm = fc.constantFrom('', ' AS', ' ASA', ' AB', ' ANS', ' DA', ' Ltd', ' Ltd.', ', Inc.', ' GmbH', ' A/S');
const storeNumber = fc.oneof(
  fc.constant(''),
  fc.nat(9999).map((n) => ` #${n}`),
  fc.nat(9999).map((n) => ` nr ${n}`),
  fc.nat(9999).map((n) => ` nr. ${n}`),
);
const tail = fc.oneof(
  fc.constant(''),
  referenceCode.map((code) => ` *${code.toUpperCase()}`),
  fc.integer({ min: 10, max: 9999 }).map((n) => ` *${n}`),
  // a masked card number, as bank statements print it
  fc.integer({ min: 1000, max: 9999 }).map((n) => ` xxxx${n}`),
  fc.integer({ min: 10_000, max: 999_999_999 }).map((n) => ` ${n}`),
);
const spacing = fc.constantFrom(
  (text: string) => text,
  (text: string) => `  ${text.replace(/ /g, '  ')}\t`,
);
/** One merchant as a card statement or a person may write it: prefixes, legal forms, store numbers, codes. */
export function aMerchantVariant(name: string): fc.Arbitrary<string> {
  return fc
    .record({ prefix, legalForm, storeNumber, tail, casing, transliteration, spacing })
    .map((v) => v.spacing(v.casing(v.transliteration(`${v.prefix}${name}${v.legalForm}${v.storeNumber}${v.tail}`))));
}

/** A merchant of DISTINCT_MERCHANTS and one way of writing it. */
export function aMerchantAndVariant(): fc.Arbitrary<[string, string]> {
  return fc.constantFrom(...DISTINCT_MERCHANTS).chain((name) => fc.tuple(fc.constant(name), aMerchantVariant(name)));
}
