import { databaseOutage, DatabaseUnreachable } from '@app/persistence';
import type { AppConfig } from './config/app-config';

/** A PostgreSQL URL as it may be shown: without its password (in the user part or the query). */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    for (const key of ['password', 'sslpassword']) parsed.searchParams.delete(key);
    return parsed.toString();
  } catch {
    return '(DATABASE_URL is not a URL)';
  }
}

/** The database the CLI uses, named as the operator configures it: DATABASE_URL, or the embedded default. */
export function databaseName(config: AppConfig): string {
  return config.databaseUrl === undefined
    ? `the embedded PostgreSQL in ${config.dataDir} (DATABASE_URL is unset)`
    : `PostgreSQL at ${redactedUrl(config.databaseUrl)} (DATABASE_URL)`;
}

/** As `databaseName`, and the owner's URL too when commands that migrate may have used it. */
function databasesNamed(config: AppConfig): string {
  if (config.migrationDatabaseUrl === undefined) return databaseName(config);
  return `${databaseName(config)} or ${redactedUrl(config.migrationDatabaseUrl)} (MIGRATION_DATABASE_URL)`;
}

/** The error, what TypeORM wraps (`driverError`), Node's AggregateError's parts and the `cause` chain. */
function* causes(error: unknown): Generator<{ code?: unknown; message?: unknown; severity?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    yield current;
    const { driverError, cause, errors } = current as { driverError?: unknown; cause?: unknown; errors?: unknown };
    if (Array.isArray(errors)) for (const each of errors) if (typeof each === 'object' && each !== null) yield each;
    current = typeof driverError === 'object' && driverError !== null ? driverError : cause;
  }
}

/** The socket's error code (ECONNREFUSED …) when there is one, else the first message that says something. */
function reasonOf(error: unknown): string {
  let message = '';
  for (const cause of causes(error)) {
    if (typeof cause.code === 'string' && /^E[A-Z]+$/.test(cause.code)) return cause.code;
    if (!message && typeof cause.message === 'string' && cause.message.trim()) message = cause.message.trim();
  }
  return message || String(error);
}

/** PostgreSQL's SQLSTATE (five characters) and message, when the server answered with an error. */
function sqlState(error: unknown): { state: string; message: string } | null {
  for (const cause of causes(error)) {
    // pg's DatabaseError: the server's severity (ERROR, FATAL) beside the SQLSTATE.
    const fromServer = typeof cause.severity === 'string' && typeof cause.message === 'string';
    if (fromServer && typeof cause.code === 'string' && /^[0-9A-Z]{5}$/.test(cause.code)) {
      return { state: cause.code, message: cause.message as string };
    }
  }
  return null;
}

/**
 * The one line the CLI prints for an error of the database, naming where it looked (DATABASE_URL,
 * without the password, or the embedded default): it could not be reached, refused the connection
 * (role, password, database name), or refused a statement. null: not a database error.
 */
export function databaseErrorLine(error: unknown, config: AppConfig): string | null {
  const where = databasesNamed(config);
  if (error instanceof DatabaseUnreachable || databaseOutage(error) !== null) {
    return `cannot reach ${where}: ${reasonOf(error)}`;
  }
  const answered = sqlState(error);
  if (answered === null) return null;
  // SQLSTATE class 28: invalid authorization (role, password); 3D000: no such database.
  if (answered.state.startsWith('28') || answered.state === '3D000') {
    return `cannot connect to ${where}: ${answered.message}`;
  }
  // 42P01: a table is missing, as in a database that was never migrated.
  const hint = answered.state === '42P01' ? ' (is it migrated? npm run cli -- db migrate)' : '';
  return `${where} refused: ${answered.message}${hint}`;
}
