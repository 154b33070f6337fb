/**
 * Whether an error means that PostgreSQL could not be used (down, restarting, out of connections,
 * unreachable) rather than that a statement was wrong, and what that says of the work in hand:
 * - 'not_started': no connection was had, so no statement of this request ran;
 * - 'interrupted': the connection was lost with a statement under way, so a write may or may not
 *   have committed (only a retry with the same Idempotency-Key can tell).
 * null: not an outage (a bug, a constraint, bad SQL …).
 */
export type DatabaseOutage = 'not_started' | 'interrupted';

/** Errors of the socket while connecting: nothing reached the server. */
const CONNECT_ERRNOS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** Errors of the socket of an open connection. */
const LOST_ERRNOS = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/**
 * SQLSTATEs refusing a new connection: too_many_connections, cannot_connect_now (starting up or
 * shutting down), sqlclient_unable_to_establish_sqlconnection, sqlserver_rejected_establishment_of_sqlconnection.
 */
const REFUSED_STATES = new Set(['53300', '57P03', '08001', '08004']);
/**
 * SQLSTATEs ending a session under way: admin_shutdown, crash_shutdown, connection_exception,
 * connection_failure, idle_session_timeout.
 */
const ENDED_STATES = new Set(['57P01', '57P02', '08000', '08006', '57P05']);

export function databaseOutage(error: unknown): DatabaseOutage | null {
  for (const cause of causes(error)) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string') {
      if (CONNECT_ERRNOS.has(code) || REFUSED_STATES.has(code)) return 'not_started';
      if (LOST_ERRNOS.has(code) || ENDED_STATES.has(code)) return 'interrupted';
    }
    // pg-pool: no connection became free, or none could be opened, within connectionTimeoutMillis.
    if (/timeout exceeded when trying to connect|connection timeout/i.test(text)) return 'not_started';
    // pg: the server closed the connection (restart, crash, terminated backend).
    if (/Connection terminated|Client has encountered a connection error|terminating connection/i.test(text)) {
      return 'interrupted';
    }
  }
  return null;
}

/** The error, what TypeORM wraps (`driverError`) and the `cause` chain, a few levels deep. */
function* causes(error: unknown): Generator<object> {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    yield current;
    const { driverError, cause, errors } = current as { driverError?: unknown; cause?: unknown; errors?: unknown };
    // Node's AggregateError of a connection tried on several addresses.
    if (Array.isArray(errors)) for (const each of errors) if (typeof each === 'object' && each !== null) yield each;
    if (typeof driverError === 'object' && driverError !== null) {
      yield driverError;
      current = (driverError as { cause?: unknown }).cause;
    } else {
      current = cause;
    }
  }
}
