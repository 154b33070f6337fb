/**
 * One INSERT described as data rather than SQL text, so that several can be written as ONE
 * statement (see `insertSql`): a unit of work that only inserts then costs a single round trip,
 * atomic without BEGIN and COMMIT.
 */
export interface Insert {
  readonly table: string;
  readonly columns: readonly string[];
  /** One entry per row, in `columns` order. Rows take identity/serial values in this order. */
  readonly rows: readonly (readonly unknown[])[];
  /** `ON CONFLICT (<columns>) DO NOTHING`: rows whose key exists are skipped, not an error. */
  readonly skipConflictsOn?: readonly string[];
  /**
   * The domain error this insert's failure means, e.g. a unique violation of its own constraint →
   * ConcurrencyConflict; the error itself when it means nothing in particular.
   */
  readonly translateError?: (error: unknown) => unknown;
}

/**
 * A condition the writes of a unit of work depend on, checked by a SQL function that raises when it
 * does not hold (`expect_active_patterns`). Written like an insert: at once, or held and checked by
 * the same statement as the held inserts, so that when it fails none of them is written.
 */
export interface Precondition {
  /** The function's name: a fixed identifier of ours, never input. */
  readonly function: string;
  /** Its arguments, in order; always sent as parameters. */
  readonly arguments: readonly unknown[];
  /** The domain error the function's failure means (see Insert.translateError). */
  readonly translateError?: (error: unknown) => unknown;
}

/** Where a store's INSERTs and preconditions go: straight to the database, or held until a unit of work commits. */
export interface InsertWriter {
  insert(insert: Insert): Promise<void>;
  expect(precondition: Precondition): Promise<void>;
}

/** How many statement shapes `insertSql` remembers the text of. */
const SHAPE_CACHE_CAPACITY = 256;
const textOfShape = new Map<string, string>();

/**
 * The SQL of `inserts` and `preconditions` as one statement: a plain INSERT for one insert,
 * data-modifying CTEs for several (`WITH w1 AS (INSERT …), w2 AS (INSERT …) INSERT …`), and with
 * preconditions every insert a CTE and the main query `SELECT f1(…) AND f2(…)`. One statement is
 * atomic: a precondition that raises undoes every insert, and PostgreSQL checks foreign keys at its
 * end, so a row may reference another row inserted by the same statement whatever their order.
 * Values are always parameters, never spliced into the text.
 *
 * The text depends only on the shape (tables, columns, row counts, conflict targets, functions),
 * and the same few shapes come back all the time (a submission's, an approval's…): their texts are
 * remembered, so that a hot statement is neither rebuilt nor, as a new string, hashed again to find
 * its prepared name.
 */
export function insertSql(
  inserts: readonly Insert[],
  preconditions: readonly Precondition[] = [],
): { sql: string; parameters: unknown[] } {
  if (inserts.length === 0 && preconditions.length === 0)
    throw new Error('insertSql needs at least one insert or precondition');
  const parameters: unknown[] = [];
  let shape = '';
  for (const insert of inserts) {
    if (insert.rows.length === 0) throw new Error(`an insert into ${insert.table} without rows`);
    for (const row of insert.rows) {
      if (row.length !== insert.columns.length) {
        throw new Error(`a row of ${row.length} values for the ${insert.columns.length} columns of ${insert.table}`);
      }
      for (const value of row) parameters.push(value);
    }
    shape += `${insert.table}(${insert.columns.join(',')})x${insert.rows.length}/${insert.skipConflictsOn?.join(',') ?? ''};`;
  }
  for (const precondition of preconditions) {
    for (const value of precondition.arguments) parameters.push(value);
    shape += `?${precondition.function}/${precondition.arguments.length};`;
  }
  let sql = textOfShape.get(shape);
  if (sql === undefined) {
    sql = sqlOfShape(inserts, preconditions);
    if (textOfShape.size < SHAPE_CACHE_CAPACITY) textOfShape.set(shape, sql);
  }
  return { sql, parameters };
}

function sqlOfShape(inserts: readonly Insert[], preconditions: readonly Precondition[]): string {
  let next = 0;
  const statements = inserts.map((insert) => {
    const tuples = insert.rows.map(() => `(${insert.columns.map(() => `$${++next}`).join(', ')})`);
    const conflict = insert.skipConflictsOn ? ` ON CONFLICT (${insert.skipConflictsOn.join(', ')}) DO NOTHING` : '';
    return `INSERT INTO ${insert.table} (${insert.columns.join(', ')}) VALUES ${tuples.join(', ')}${conflict}`;
  });
  const checks = preconditions.map((p) => `${p.function}(${p.arguments.map(() => `$${++next}`).join(', ')})`);
  // Data-modifying CTEs run to completion whatever the main query reads; a check that raises aborts the lot.
  const main = checks.length > 0 ? `SELECT ${checks.join(' AND ')}` : statements.pop()!;
  return statements.length === 0 ? main : `WITH ${statements.map((s, i) => `w${i + 1} AS (${s})`).join(', ')} ${main}`;
}

/** The error the failed statement means to the inserts and preconditions it carried: the first translation that applies. */
export function translateInsertError(
  inserts: readonly Insert[],
  error: unknown,
  preconditions: readonly Precondition[] = [],
): unknown {
  for (const part of [...inserts, ...preconditions]) {
    const translated = part.translateError?.(error) ?? error;
    if (translated !== error) return translated;
  }
  return error;
}

/** What runs SQL: an EntityManager, or a QueryRunner. */
export interface SqlTarget {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Runs `inserts` and `preconditions` as one statement on `target`, their error translated. */
export async function writeInserts(
  target: SqlTarget,
  inserts: readonly Insert[],
  preconditions: readonly Precondition[] = [],
): Promise<void> {
  if (inserts.length === 0 && preconditions.length === 0) return;
  const { sql, parameters } = insertSql(inserts, preconditions);
  try {
    await target.query(sql, parameters);
  } catch (error) {
    throw translateInsertError(inserts, error, preconditions);
  }
}

/** Each insert and precondition runs at once on `target` (an EntityManager: in its transaction, when it has one). */
export function immediateInserts(target: SqlTarget): InsertWriter {
  return {
    insert: (insert) => writeInserts(target, [insert]),
    expect: (precondition) => writeInserts(target, [], [precondition]),
  };
}
