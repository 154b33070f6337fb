/**
 * The README's walk-through ("A first session with curl") as data: its bash blocks, verbatim, and
 * the responses it shows under each command, so that test/readme-walkthrough.e2e-spec.ts can run
 * the one and compare the other.
 *
 * A shown response is a comment that starts with `# {` or `# [` and goes on over the following
 * comment lines until its brackets close; each line loses its `#` and one space, and the lines are
 * joined as they are (a continuation line starts with `#  `, so a string broken there keeps its
 * space). The notation is JSON with `…`:
 *
 * - `…` among an object's members: the answer may have more keys. Without it, exactly the keys shown.
 * - `…` among an array's items: more items may be there (each shown item must match one, in order).
 *   Without it, exactly the items shown, in order.
 * - `…` as a value: any value.
 * - a string ending in `…`: any string starting with what is before it (`"…"`: any string).
 */

export interface WalkthroughBlock {
  /** The block's text, as the README has it. */
  script: string;
  /** The responses shown in the block, in order, as written (without the `# `). */
  expected: string[];
}

const SECTION = '## A first session with curl';

/** The bash blocks of the README's walk-through section, in order. */
export function walkthroughBlocks(readme: string): WalkthroughBlock[] {
  const start = readme.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`the README has no section "${SECTION}"`);
  const next = readme.indexOf('\n## ', start + SECTION.length + 2);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((match) => ({
    script: match[1],
    expected: shownResponses(match[1]),
  }));
}

function shownResponses(script: string): string[] {
  const responses: string[] = [];
  let current: string | undefined;
  for (const line of script.split('\n')) {
    const comment = /^# ?(.*)$/.exec(line);
    if (current !== undefined) {
      if (!comment) throw new Error(`a shown response does not close its brackets: ${current}`);
      current += comment[1];
    } else if (comment && /^[[{]/.test(comment[1])) {
      current = comment[1];
    }
    if (current !== undefined && bracketDepth(current) === 0) {
      responses.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) throw new Error(`a shown response does not close its brackets: ${current}`);
  return responses;
}

/** Brackets opened and not closed, outside strings. */
function bracketDepth(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return depth;
}

/** The top-level JSON values a command printed, in order; anything else between them is an error. */
export function printedValues(output: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < output.length; i++) {
    const c = output[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) values.push(JSON.parse(output.slice(start, i + 1)));
    } else if (depth === 0 && !/\s/.test(c)) {
      throw new Error(`printed something that is not JSON: ${JSON.stringify(output.slice(i, i + 80))}`);
    }
  }
  if (depth !== 0) throw new Error(`printed an unfinished JSON value: ${output.slice(start, start + 200)}`);
  return values;
}

const MORE = '\u0000more';
const ANY = '\u0000any';

/** A shown response as a pattern: JSON where `…` became markers that `mismatches` reads. */
export function parseShown(shown: string): unknown {
  let json = '';
  const containers: string[] = [];
  let inString = false;
  let previous = '';
  for (let i = 0; i < shown.length; i++) {
    const c = shown[i];
    if (inString) {
      json += c;
      if (c === '\\') json += shown[++i];
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '…') {
      const container = containers.at(-1);
      if (previous === ':' || container === undefined) json += JSON.stringify(ANY);
      else if (container === '{') json += `${JSON.stringify(MORE)}:true`;
      else json += JSON.stringify(MORE);
      previous = '…';
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') containers.push(c);
    else if (c === '}' || c === ']') containers.pop();
    if (!/\s/.test(c)) previous = c;
    json += c;
  }
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw new Error(`a shown response is not JSON with "…": ${shown} (${(error as Error).message})`);
  }
}

/** Where `actual` differs from the pattern (parseShown), one line each; none when it matches. */
export function mismatches(pattern: unknown, actual: unknown, at = '$'): string[] {
  if (pattern === ANY) return [];
  if (typeof pattern === 'string' && pattern.endsWith('…')) {
    const prefix = pattern.slice(0, -1);
    return typeof actual === 'string' && actual.startsWith(prefix)
      ? []
      : [`${at}: expected a string starting with ${JSON.stringify(prefix)}, got ${brief(actual)}`];
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${brief(actual)}`];
    const more = pattern.includes(MORE);
    const items = pattern.filter((item) => item !== MORE);
    return more ? itemsInOrder(items, actual, at) : sameItems(items, actual, at);
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${brief(actual)}`];
    }
    const shown = pattern as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    const problems: string[] = [];
    for (const key of Object.keys(shown).filter((k) => k !== MORE)) {
      if (!(key in got)) problems.push(`${at}.${key}: missing`);
      else problems.push(...mismatches(shown[key], got[key], `${at}.${key}`));
    }
    if (!(MORE in shown)) {
      const extra = Object.keys(got).filter((key) => !(key in shown));
      if (extra.length > 0) problems.push(`${at}: keys not shown (and no "…"): ${extra.join(', ')}`);
    }
    return problems;
  }
  return Object.is(pattern, actual) ? [] : [`${at}: expected ${brief(pattern)}, got ${brief(actual)}`];
}

function sameItems(items: unknown[], actual: unknown[], at: string): string[] {
  if (items.length !== actual.length) {
    return [`${at}: expected ${items.length} items (and no "…"), got ${actual.length}`];
  }
  return items.flatMap((item, i) => mismatches(item, actual[i], `${at}[${i}]`));
}

/** Each shown item matches an item of `actual`, in the shown order (others may lie between). */
function itemsInOrder(items: unknown[], actual: unknown[], at: string): string[] {
  let from = 0;
  for (const [n, item] of items.entries()) {
    const found = actual.findIndex((candidate, i) => i >= from && mismatches(item, candidate).length === 0);
    if (found < 0) {
      const nearest = actual[from];
      const why = nearest === undefined ? 'no items left' : mismatches(item, nearest, `${at}[${from}]`).join('; ');
      return [`${at}: shown item ${n} matches no item from [${from}] on (${why})`];
    }
    from = found + 1;
  }
  return [];
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
