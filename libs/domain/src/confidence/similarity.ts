/**
 * String similarity of merchant keys, in [0, 1]. Self-contained so that the ConfidenceEngine does
 * not depend on the database's pg_trgm: persistence uses trigrams only to pre-filter candidates,
 * and the engine decides "same merchant" (equal keys) versus "similar name" itself.
 */

/** Jaro–Winkler similarity (prefix scale 0.1, prefix up to 4 characters). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (!bMatched[j] && a[i] === b[j]) {
        aMatched[i] = bMatched[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a[i] !== b[j]) transpositions++;
    j++;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** The trigrams pg_trgm would extract: each word padded with two spaces before and one after. */
function trigrams(text: string): Set<string> {
  const grams = new Set<string>();
  for (const word of text.split(/[^a-z0-9]+/).filter(Boolean)) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** Jaccard similarity of trigram sets, the same measure as pg_trgm's `similarity()`. */
export function trigramSimilarity(a: string, b: string): number {
  const [x, y] = [trigrams(a), trigrams(b)];
  if (x.size === 0 || y.size === 0) return a === b && a !== '' ? 1 : 0;
  let shared = 0;
  for (const gram of x) if (y.has(gram)) shared++;
  return shared / (x.size + y.size - shared);
}

/**
 * How alike two merchant keys look: the larger of Jaro–Winkler (good for prefixes and typos:
 * "uber" / "uber eats") and trigram Jaccard (good for reordered words). Symmetric, 1 for equal keys.
 */
export function merchantSimilarity(a: string, b: string): number {
  if (a === b) return a === '' ? 0 : 1;
  return Math.max(jaroWinkler(a, b), jaroWinkler(b, a), trigramSimilarity(a, b));
}
