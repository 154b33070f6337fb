/**
 * The merchant lookup key: what makes "SPOTIFY AB", "Spotify  ab.", "VIPPS*Spotify *1234" and the
 * card statement's "SPOTIFY AB *P2B9C1X" the same merchant. Used by the ConfidenceEngine and by
 * persistence to index patterns, so both must call this one function. The steps, in order:
 *
 * 1. Letters: lowercase; æ→ae, ø→o, å→a, ß→ss and friends explicitly; then NFKD with the combining
 *    marks dropped (ü→u, é→e).
 * 2. Card-descriptor noise: payment-processor prefixes (`VIPPS*`, `PAYPAL *`, `SQ *`, `SP *`,
 *    `TST*`, `IZ *`, `SumUp *`, `Zettle_*`, `Klarna*`, `PP*`), masked card numbers (`*1234`, four
 *    x's then digits, `**** 1234`). After the merchant's own `*` (`UBER *TRIP 7XK2`) the statement's
 *    additions go: reference codes, web addresses and the words TRIP and PENDING; what else follows
 *    the `*` is kept, because it tells merchants apart ("UBER *EATS" is Uber Eats, not Uber).
 * 3. Punctuation: a store number after `#` goes; apostrophes vanish ("Applebee's" → "applebees");
 *    dotted or slashed one-letter abbreviations join ("S.A." → "sa", "A/S" → "as"); any other
 *    non-alphanumeric run is one space.
 * 4. Reference codes anywhere but first: a word of letters and digits mixed at least twice, with two
 *    of each ("P2B9C1X", "7XK2", not "Rema1000" or "24x7"). Then a letter–digit boundary becomes a
 *    space ("Rema1000" → "rema 1000"), numbers of five digits or more go (but first), and so do
 *    store numbers that say so (`nr 123`, `no. 123`, `store 123`, `butikk 123`, `avd 123`).
 * 5. Card terminals without Norwegian letters write ø as "oe" and å as "aa" (or plain "o" and
 *    "a"): "aa" becomes "a" and "oe" (with any e's after it) "o", so that "OEKERN" and "Økern" are
 *    "okern", "AALESUND" and "Ålesund" "alesund", "WIDEROE" and "Widerøe" "widero".
 * 6. Trailing legal-form suffixes (AS, ASA, AB, Ltd, GmbH, Inc, LLC, Oy, ApS, SA, BV, NUF, DA,
 *    ANS, …) and trailing bare store numbers, repeatedly. A trailing number is dropped only when at
 *    least two words precede it ("Rema 1000 Grünerløkka 123" → "rema 1000 grunerlokka"), so a
 *    brand that ends in a number stays whole ("Rema 1000", "Forever 21", "Kiwi 345" keep theirs):
 *    merging two different merchants would be worse than missing a match. A suffix or number is
 *    never dropped when it is all that is left.
 *
 * City and country names are kept: "Rema 1000 Majorstuen" and "Rema 1000 Storo", or "Telia Norge"
 * and "Telia Sverige", are different keys and score as similar names (review recommended), never as
 * the same merchant.
 *
 * Stored patterns and proposals carry the key this function gave; when it changes, a migration
 * re-keys them (libs/persistence/src/pattern/rekey-patterns.ts, proposal/rekey-proposals.ts).
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
  text = text.replace(NUMBER_SIGN, ' ');
  let words = simplifyPunctuation(text).split(' ');
  words = words.filter((word, i) => i === 0 || !isReferenceCode(word));
  words = words.flatMap(splitLettersFromDigits).filter((word, i) => i === 0 || !/^\d{5,}$/.test(word));
  words = dropStoreNumbers(words);
  words = words.map(foldTransliterations).filter(Boolean);
  return dropTrailingNoise(words).join(' ');
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

/** "aa" → "a", "oe…" → "o": å and ø as terminals without them write them. */
function foldTransliterations(word: string): string {
  return word.replace(/a{2,}/g, 'a').replace(/oe+/g, 'o');
}

/** Drops each store-number word with the number after it ("nr 12"), so that no such pair is left. */
function dropStoreNumbers(words: string[]): string[] {
  const kept: string[] = [];
  for (const word of words) {
    if (/^\d+$/.test(word) && STORE_NUMBER_WORDS.has(kept[kept.length - 1])) kept.pop();
    else kept.push(word);
  }
  return kept;
}

/** "rema1000" → "rema", "1000". */
function splitLettersFromDigits(word: string): string[] {
  return word.split(/(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/);
}

/** Payment processors that prefix the real merchant's name in card statements. */
const PROCESSOR_PREFIX = /^\s*(?:vipps|paypal|pp|sq|sp|tst|iz|izettle|zettle|sumup|sum up|klarna)\s*[*_]+\s*/;
/** `*1234`, `**** **** 1234`, and groups of four x's before the digits (`x{4}1234`, `x{4} x{4} x{4} 1234`). */
const MASKED_CARD = /(?:\*+|\b(?:x{4}[\s-]*)+)\s*\d{2,}\b/g;
/** `#123`: a store number. */
const NUMBER_SIGN = /#\s*\d+\b/g;
/** Words that announce a store number: `nr 123`, `no. 123`, `store 123`, `butikk 123`, `avd 123`. */
const STORE_NUMBER_WORDS = new Set(['nr', 'no', 'store', 'butikk', 'avd']);
/** Words a card statement adds after the merchant's `*` that name no merchant. */
const DESCRIPTOR_WORDS = new Set(['trip', 'pending']);
/** `help.uber.com`, `amzn.com/bill`: a web address in a statement's descriptor. */
const WEB_ADDRESS = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:\/\S*)?$/;

function stripCardNoise(text: string): string {
  let result = text;
  for (let previous = ''; previous !== result;) {
    previous = result;
    result = result.replace(PROCESSOR_PREFIX, '');
  }
  result = result.replace(MASKED_CARD, ' ');
  const star = result.indexOf('*');
  if (star < 0) return result;
  // The merchant's own descriptor: what follows its `*` keeps only the words that may name something.
  const descriptor = result
    .slice(star + 1)
    .split(/[\s*]+/)
    .filter((word) => word !== '' && !DESCRIPTOR_WORDS.has(word) && !WEB_ADDRESS.test(word) && !isReferenceCode(word));
  return [result.slice(0, star), ...descriptor].join(' ');
}

/** "p2b9c1x", "7xk2": letters and digits, at least two of each, switching at least twice. */
function isReferenceCode(word: string): boolean {
  if (!/^[a-z0-9]+$/.test(word)) return false;
  const letters = word.replace(/[0-9]/g, '').length;
  const digits = word.length - letters;
  const switches = (word.match(/[a-z](?=[0-9])|[0-9](?=[a-z])/g) ?? []).length;
  return letters >= 2 && digits >= 2 && switches >= 2;
}

function simplifyPunctuation(text: string): string {
  return text
    .replace(/['’‘`´]/g, '')
    .replace(/\b([a-z])[./]([a-z])\b\.?/g, '$1$2')
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
