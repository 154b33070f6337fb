/**
 * Tripletex's `fields` filter: `id,number,postings(*,account(number))`. Without it a resource comes
 * back with all its own fields and nested resources collapsed to `{id, url}`; a named nested
 * resource expands only when given a sub-selection.
 */

export interface Selection {
  all: boolean;
  fields: Map<string, Selection | null>;
}

export class FieldsFilterError extends Error {
  constructor(readonly field: string) {
    super(`Illegal field in fields filter: ${field}`);
  }
}

const SELECT_ALL: Selection = { all: true, fields: new Map() };

export function parseFields(expression: string | undefined): Selection {
  if (!expression || !expression.trim()) return SELECT_ALL;
  let position = 0;
  const text = expression.replace(/\s+/g, '');

  const parseList = (): Selection => {
    const selection: Selection = { all: false, fields: new Map() };
    while (position < text.length && text[position] !== ')') {
      let name = '';
      while (position < text.length && !',()'.includes(text[position])) name += text[position++];
      let sub: Selection | null = null;
      if (text[position] === '(') {
        position++;
        sub = parseList();
        if (text[position] !== ')') throw new FieldsFilterError(expression);
        position++;
      }
      if (name === '*') selection.all = true;
      else if (name) selection.fields.set(name, sub);
      else throw new FieldsFilterError(expression);
      if (text[position] === ',') position++;
    }
    return selection;
  };

  const selection = parseList();
  if (position !== text.length) throw new FieldsFilterError(expression);
  return selection;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A nested resource built only when a selection expands it; otherwise it renders as `{id, url}`. */
export class ResourceRef {
  constructor(
    readonly id: number,
    readonly url: string,
    private readonly load: () => Record<string, unknown>,
  ) {}

  resource(): Record<string, unknown> {
    return this.load();
  }
}

function collapse(value: unknown): Json {
  if (Array.isArray(value)) return value.map(collapse);
  if (value instanceof ResourceRef) return { id: value.id, url: value.url };
  return value as Json;
}

function expand(value: unknown, selection: Selection): Json {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => expand(item, selection));
  if (value instanceof ResourceRef) return project(value.resource(), selection);
  if (typeof value !== 'object') return value as Json;
  return project(value as Record<string, unknown>, selection);
}

/** Applies a selection to one resource. Throws {@link FieldsFilterError} on an unknown field. */
export function project(resource: Record<string, unknown>, selection: Selection): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const name of selection.fields.keys()) {
    if (!(name in resource)) throw new FieldsFilterError(name);
  }
  const keys = selection.all ? Object.keys(resource) : [...selection.fields.keys()];
  for (const key of keys) {
    const sub = selection.fields.get(key);
    out[key] = sub ? expand(resource[key], sub) : collapse(resource[key]);
  }
  return out;
}
