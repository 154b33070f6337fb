import type { Pattern } from '@app/domain';
import type { Bind, OrderedSelect } from '../shared/sql';
import { PATTERN_SELECT, patternFromRecord, type PatternRecord } from './pattern.mapper';

/** The timestamptz columns of PATTERN_SELECT, for recordsFromJson. */
export const PATTERN_TIMESTAMP_COLUMNS = ['created_at', 'updated_at', 'retired_at'] as const;

/**
 * The candidate query: every active pattern with exactly the key, or when there is none the most
 * similar keys by trigram similarity, through the `pattern_candidates` function (migrations
 * 1763810000001 and 1764245000001: it keeps the lookup on the indexes).
 */
export function candidatesSelect(bind: Bind, companyId: string, merchantKey: string, limit: number): OrderedSelect {
  const key = bind(merchantKey);
  const order = 'rank DESC, id';
  return {
    sql: `SELECT ${PATTERN_SELECT}, similarity(merchant_key, ${key}) AS rank
            FROM pattern_candidates(${bind(companyId)}, ${key}, ${bind(Math.max(0, limit))}) ORDER BY ${order}`,
    order,
  };
}

/**
 * The candidates among the query's rows: they are either every exact-key pattern (all of them,
 * whatever the limit), ordered by id, or look-alikes, most similar first.
 */
export function candidatesFrom(rows: readonly PatternRecord[], merchantKey: string): Pattern[] {
  const exact = rows.filter((row) => row.merchant_key === merchantKey).sort((a, b) => compareText(a.id, b.id));
  return (exact.length > 0 ? exact : rows).map(patternFromRecord);
}

function compareText(a: unknown, b: unknown): number {
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}
