/**
 * The merchant lookup key: what makes "SPOTIFY AB", "Spotify  ab." and "VIPPS*Spotify *1234" the
 * same merchant. Used by the ConfidenceEngine and by persistence to index patterns, so both must
 * call this one function. The steps, in order:
 *
 * 1. Letters: lowercase; æ→ae, ø→o, å→a, ß→ss and friends explicitly; then NFKD with the combining
 *    marks dropped (ü→u, é→e).
 * 2. Card-descriptor noise: payment-processor prefixes (`VIPPS*`, `PAYPAL *`, `SQ *`, `IZ *`,
 *    `SumUp *`, `Zettle_*`, `PP*`), masked card numbers (`*1234`, four x's then digits, `**** 1234`).
 * 3. Store numbers that say so: `#123`, `nr 123`, `no. 123`, `store 123`, `butikk 123`, `avd 123`.
 * 4. Punctuation: apostrophes vanish ("Applebee's" → "applebees"); dotted or slashed one-letter
 *    abbreviations join ("S.A." → "sa", "A/S" → "as"); any other non-alphanumeric run is one
 *    space; a letter–digit boundary becomes a space ("Rema1000" → "rema 1000").
 * 5. Trailing legal-form suffixes (AS, ASA, AB, Ltd, GmbH, Inc, LLC, Oy, ApS, SA, BV, NUF, DA,
 *    ANS, …) and trailing bare store numbers, repeatedly. A trailing number is dropped only when at
 *    least two words precede it ("Rema 1000 Grünerløkka 123" → "rema 1000 grunerlokka"), so a
 *    brand that ends in a number stays whole ("Rema 1000", "Forever 21", "Kiwi 345" keep theirs):
 *    merging two different merchants would be worse than missing a match. A suffix or number is
 *    never dropped when it is all that is left.
 *
 * City names are kept: "Rema 1000 Majorstuen" and "Rema 1000 Storo" are different keys and score as
 * similar names (review recommended), never as the same merchant.
 */
export function normalizeMerchant(name: string): string {
  // One submission asks for the same name's key several times (validation, the candidate lookup,
  // scoring, the proposal itself): the last answer is remembered. The function stays pure.
  if (name === last.name) return last.key;
  const key = computeKey(name);
  last = { name, key };
  return key;
}

let last: { readonly name: string | undefined; readonly key: string } = { name: undefined, key: '' };

function computeKey(name: string): string {
  let text = foldLetters(name);
  text = stripCardNoise(text);
  text = text.replace(STORE_NUMBER_MARKERS, ' ');
  text = simplifyPunctuation(text);
  return dropTrailingNoise(text.split(' ').filter(Boolean)).join(' ');
}

const EXPLICIT_LETTERS: Record<string, string> = {
  æ: 'ae',
  ø: 'o',
  å: 'a',
  ß: 'ss',
  œ: 'oe',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

function foldLetters(name: string): string {
  return name
    .toLowerCase()
    .replace(/[æøåßœđðłþı]/g, (letter) => EXPLICIT_LETTERS[letter])
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** Payment processors that prefix the real merchant's name in card statements. */
const PROCESSOR_PREFIX = /^\s*(?:vipps|paypal|pp|sq|iz|izettle|zettle|sumup|sum up)\s*[*_]+\s*/;
/** `*1234`, `**** **** 1234`, and groups of four x's before the digits (`x{4}1234`, `x{4} x{4} x{4} 1234`). */
const MASKED_CARD = /(?:\*+|\b(?:x{4}[\s-]*)+)\s*\d{2,}\b/g;
const STORE_NUMBER_MARKERS = /(?:#|\b(?:nr|no|store|butikk|avd)\b\.?)\s*\d+\b/g;

function stripCardNoise(text: string): string {
  let result = text;
  for (let previous = ''; previous !== result;) {
    previous = result;
    result = result.replace(PROCESSOR_PREFIX, '');
  }
  return result.replace(MASKED_CARD, ' ');
}

function simplifyPunctuation(text: string): string {
  return text
    .replace(/['’‘`´]/g, '')
    .replace(/\b([a-z])[./]([a-z])\b\.?/g, '$1$2')
    .replace(/([a-z])(?=\d)|(\d)(?=[a-z])/g, '$1$2 ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const LEGAL_SUFFIXES = new Set([
  'as',
  'asa',
  'ab',
  'publ',
  'ltd',
  'limited',
  'gmbh',
  'inc',
  'incorporated',
  'llc',
  'llp',
  'oy',
  'oyj',
  'aps',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'nuf',
  'da',
  'ans',
  'ks',
  'plc',
  'ag',
  'kg',
  'co',
  'corp',
  'corporation',
  'pty',
  'ltda',
  'hf',
  'ehf',
  'sl',
]);

function dropTrailingNoise(tokens: string[]): string[] {
  const result = [...tokens];
  for (;;) {
    const last = result[result.length - 1];
    if (result.length > 1 && LEGAL_SUFFIXES.has(last)) {
      result.pop();
    } else if (result.length > 2 && /^\d+$/.test(last)) {
      result.pop();
    } else {
      return result;
    }
  }
}
