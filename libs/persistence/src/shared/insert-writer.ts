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

/** Where a store's INSERTs go: straight to the database, or held until a unit of work commits. */
export interface InsertWriter {
  insert(insert: Insert): Promise<void>;
}

/** How many statement shapes `insertSql` remembers the text of. */
const SHAPE_CACHE_CAPACITY = 256;
const textOfShape = new Map<string, string>();

/**
 * The SQL of `inserts` as one statement: a plain INSERT for one, data-modifying CTEs for several
 * (`WITH w1 AS (INSERT …), w2 AS (INSERT …) INSERT …`). One statement is atomic, and PostgreSQL
 * checks foreign keys at its end, so a row may reference another row inserted by the same
 * statement whatever their order. Values are always parameters, never spliced into the text.
 *
 * The text depends only on the inserts' shape (tables, columns, row counts, conflict targets), and
 * the same few shapes come back all the time (a submission's, an approval's…): their texts are
 * remembered, so that a hot statement is neither rebuilt nor, as a new string, hashed again to find
 * its prepared name.
 */
export function insertSql(inserts: readonly Insert[]): { sql: string; parameters: unknown[] } {
  if (inserts.length === 0) throw new Error('insertSql needs at least one insert');
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
  let sql = textOfShape.get(shape);
  if (sql === undefined) {
    sql = sqlOfShape(inserts);
    if (textOfShape.size < SHAPE_CACHE_CAPACITY) textOfShape.set(shape, sql);
  }
  return { sql, parameters };
}

function sqlOfShape(inserts: readonly Insert[]): string {
  let next = 0;
  const statements = inserts.map((insert) => {
    const tuples = insert.rows.map(() => `(${insert.columns.map(() => `$${++next}`).join(', ')})`);
    const conflict = insert.skipConflictsOn ? ` ON CONFLICT (${insert.skipConflictsOn.join(', ')}) DO NOTHING` : '';
    return `INSERT INTO ${insert.table} (${insert.columns.join(', ')}) VALUES ${tuples.join(', ')}${conflict}`;
  });
  const last = statements.pop()!;
  return statements.length === 0 ? last : `WITH ${statements.map((s, i) => `w${i + 1} AS (${s})`).join(', ')} ${last}`;
}

/** The error the failed statement means to the inserts it carried: the first translation that applies. */
export function translateInsertError(inserts: readonly Insert[], error: unknown): unknown {
  for (const insert of inserts) {
    const translated = insert.translateError?.(error) ?? error;
    if (translated !== error) return translated;
  }
  return error;
}

/** What runs SQL: an EntityManager, or a QueryRunner. */
export interface SqlTarget {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Runs `inserts` as one statement on `target`, their error translated. */
export async function writeInserts(target: SqlTarget, inserts: readonly Insert[]): Promise<void> {
  if (inserts.length === 0) return;
  const { sql, parameters } = insertSql(inserts);
  try {
    await target.query(sql, parameters);
  } catch (error) {
    throw translateInsertError(inserts, error);
  }
}

/** Each insert runs at once on `target` (an EntityManager: in its transaction, when it has one). */
export function immediateInserts(target: SqlTarget): InsertWriter {
  return { insert: (insert) => writeInserts(target, [insert]) };
}
