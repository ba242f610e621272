/**
 * What a failed statement means, the same on both databases: better-sqlite3 reports extended
 * result codes (SQLITE_CONSTRAINT_UNIQUE…), pg reports SQLSTATE codes (23505…).
 */

function codeOf(error: unknown): string {
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string"
    ? (error as { code: string }).code
    : "";
}

/** A unique index or primary key refused the row. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** A foreign key refused the row (or the delete of a row others point at). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}

/** SQLSTATE classes and codes that mean the server cannot be reached or will not serve now. */
const POSTGRES_UNAVAILABLE = new Set([
  "57P01", // admin_shutdown: a fast restart or a terminated backend
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded (connection limits)
]);
/** Node socket errors on the way to a database server. */
const NETWORK_UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** What pg's client and pool say (no code) when the connection went or never came. */
const PG_CONNECTION_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Connection terminated due to connection timeout",
  "Query read timeout",
];

/**
 * The database cannot serve now, though nothing is wrong with the request: PostgreSQL restarting,
 * unreachable or out of connections, the pool's wait for a connection or a query's time limit
 * run out, or SQLite locked past its busy timeout, its file unopenable or its disk failing. The
 * request is answered 503 with Retry-After (app/lib/outage.server.ts): trying again soon works.
 * A full disk is not one of these: see `isDiskFull`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = codeOf(cause);
    if (code) {
      if (POSTGRES_UNAVAILABLE.has(code) || code.startsWith("08")) return true;
      if (code === "57014") return true; // query_canceled: statement_timeout ran out
      if (NETWORK_UNAVAILABLE.has(code)) return true;
      if (code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_")) return true;
      if (code === "SQLITE_LOCKED" || code.startsWith("SQLITE_LOCKED_")) return true;
      if (code === "SQLITE_CANTOPEN" || code.startsWith("SQLITE_CANTOPEN_")) return true;
      if (code === "SQLITE_IOERR" || code.startsWith("SQLITE_IOERR_")) return true;
      if (code === "SQLITE_READONLY_DBMOVED" || code === "SQLITE_PROTOCOL") return true;
    }
    const message = cause instanceof Error ? cause.message : "";
    if (PG_CONNECTION_MESSAGES.some((text) => message.includes(text))) return true;
  }
  return false;
}

/**
 * The disk under the database (SQLITE_FULL), or under the uploads folder (ENOSPC, EDQUOT), is
 * full: a write cannot be kept. Answered 507; reads keep working; nothing to restart once space
 * is freed.
 */
export function isDiskFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = codeOf(cause);
    if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT" || code === "53100") return true;
  }
  return false;
}
