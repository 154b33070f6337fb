import { QueryFailedError, type EntityManager } from 'typeorm';
import { ConcurrencyConflict } from '@app/domain';

/** PostgreSQL SQLSTATE of a unique or exclusion constraint violation. */
const UNIQUE_VIOLATION = '23505';

/** The SQLSTATE and constraint name of a failed query, when the driver reported them. */
function pgErrorOf(error: unknown): { code?: string; constraint?: string } {
  if (!(error instanceof QueryFailedError)) return {};
  const driverError = error.driverError as { code?: unknown; constraint?: unknown } | undefined;
  return {
    code: typeof driverError?.code === 'string' ? driverError.code : undefined,
    constraint: typeof driverError?.constraint === 'string' ? driverError.constraint : undefined,
  };
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgErrorOf(error);
  return pg.code === UNIQUE_VIOLATION && (constraint === undefined || pg.constraint === constraint);
}

/**
 * A translation of errors: a unique violation of one of `constraints` becomes the domain's
 * ConcurrencyConflict (someone else wrote first); every other error stays itself.
 */
function uniqueViolationAs(constraints: readonly string[], message: () => string): (error: unknown) => unknown {
  return (error) => {
    const pg = pgErrorOf(error);
    const ours = pg.code === UNIQUE_VIOLATION && pg.constraint !== undefined && constraints.includes(pg.constraint);
    return ours ? new ConcurrencyConflict(message()) : error;
  };
}

/** Runs `work`, a unique violation of one of `constraints` turned into ConcurrencyConflict. */
export async function conflictOnUniqueViolation<T>(
  constraints: readonly string[],
  message: () => string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw uniqueViolationAs(constraints, message)(error);
  }
}

export interface QueryOutcome<T> {
  readonly rows: T[];
  /** Rows inserted, updated or deleted (or returned, for SELECT). */
  readonly affected: number;
}

/**
 * Runs one statement on the manager's connection (its transaction, when it has one) and returns
 * both the rows and the affected-row count, whatever the statement. `EntityManager.query` returns
 * `[rows, count]` for UPDATE/DELETE but bare rows otherwise, which is easy to misread.
 */
export async function execute<T = Record<string, unknown>>(
  manager: EntityManager,
  sql: string,
  parameters: unknown[] = [],
): Promise<QueryOutcome<T>> {
  const own = manager.queryRunner ? undefined : manager.connection.createQueryRunner();
  const runner = manager.queryRunner ?? own!;
  try {
    const result = await runner.query(sql, parameters, true);
    const rows = (result.records ?? []) as T[];
    return { rows, affected: result.affected ?? rows.length };
  } finally {
    await own?.release();
  }
}

/** Rows of a query. */
export async function select<T = Record<string, unknown>>(
  manager: EntityManager,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  return (await execute<T>(manager, sql, parameters)).rows;
}

/**
 * `INSERT INTO table (columns) VALUES ($1, …), (…)` for `rows` rows, every value a parameter (the
 * rows' values flattened in order; numbered from `$first`, for a statement that has others before
 * them). Table and column names are fixed identifiers of ours, never input.
 */
export function insertInto(table: string, columns: readonly string[], rows: number, first = 1): string {
  let next = first - 1;
  const tuples = Array.from({ length: rows }, () => `(${columns.map(() => `$${++next}`).join(', ')})`);
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`;
}

/**
 * Runs `work` inside a transaction: the manager's own when it is already transactional (a unit of
 * work), a new one otherwise. Work passed a transactional manager must use only that manager, so
 * that its statements are part of the transaction.
 */
export async function inTransaction<T>(manager: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  if (manager.queryRunner?.isTransactionActive) return work(manager);
  return manager.transaction(work);
}

/** bigint / numeric columns arrive as strings from the pg driver. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

export function toNullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : toNumber(value);
}

/** `$n` of a value just appended to a statement's parameters. */
export type Bind = (value: unknown) => string;

/**
 * A statement's parameters, numbered as they are bound: `bind(value)` appends `value` and returns its
 * `$n`. Lets one query's SQL be written once and placed alone or inside a larger statement.
 */
export class StatementParameters {
  readonly values: unknown[] = [];
  readonly bind: Bind = (value) => {
    this.values.push(value);
    return `$${this.values.length}`;
  };
}

/** A SELECT with the order of its rows, which an aggregate over it must keep (`jsonRowsOf`). */
export interface OrderedSelect {
  readonly sql: string;
  /** Its ORDER BY list, naming its output columns. */
  readonly order: string;
}

/** The rows of `select` as one JSON array (`[]` for none): one column of a statement that reads several. */
export function jsonRowsOf(select: OrderedSelect): string {
  return `(SELECT COALESCE(json_agg(r ORDER BY ${select.order}), '[]') FROM (${select.sql}) r)`;
}

/**
 * The rows of a `jsonRowsOf` column as the driver returns the same SELECT's rows, for the same mapper:
 * JSON carries a timestamptz as text, so the `timestamps` columns become Dates again. The other types
 * come as the mappers take them already: bigint and numeric as numbers (toNumber), jsonb as its
 * value, arrays as arrays, dates as the text the SELECT made of them.
 */
export function recordsFromJson<T>(rows: readonly Record<string, unknown>[], timestamps: readonly string[]): T[] {
  return rows.map((row) => {
    const record: Record<string, unknown> = { ...row };
    for (const column of timestamps) {
      const value = record[column];
      if (typeof value === 'string') record[column] = new Date(value);
    }
    return record as T;
  });
}
