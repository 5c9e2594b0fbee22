// Whether an error says that PostgreSQL could not be reached or ended the session, rather than refusing
// a statement: a restart or a failover, the database closed to connections, too many clients. Nothing
// was judged then, so the edge answers 503 and the client repeats the request with the same key.
import postgres from 'postgres';

/** postgres.js's own codes for a connection that broke or never opened. */
const DRIVER_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT']);
/** A socket's failure, as Node reports it for the driver's connection (`syscall` connect, read or write). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const SOCKET_CALLS = new Set(['connect', 'read', 'write']);
/** SQLSTATEs of a session ended by the server (admin_shutdown, crash_shutdown, cannot_connect_now). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);

/** The cause's code when `err` is PostgreSQL being unreachable (for the log), null for any other error. */
export function databaseUnreachable(err: unknown): string | null {
  if (err instanceof postgres.PostgresError) {
    // FATAL ends the session: the connection was refused or cut (class 08, 53300, 55000 for a closed database…).
    const ended = err.severity === 'FATAL' || err.severity === 'PANIC' || err.code.startsWith('08') || SHUTDOWN_STATES.has(err.code);
    return ended ? err.code : null;
  }
  if (!(err instanceof Error)) return null;
  const { code, syscall } = err as Error & { code?: unknown; syscall?: unknown };
  if (typeof code !== 'string') return null;
  if (DRIVER_CODES.has(code)) return code;
  return SOCKET_CODES.has(code) && typeof syscall === 'string' && SOCKET_CALLS.has(syscall) ? code : null;
}
