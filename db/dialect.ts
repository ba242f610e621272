/**
 * The SQL that differs between SQLite and PostgreSQL, in one place. Models call these helpers
 * and stay portable; nothing under app/ branches on the dialect itself.
 *
 * - Case-insensitive partial matching: SQLite's LIKE ignores ASCII case; PostgreSQL's LIKE does
 *   not, so it gets ILIKE (which also folds non-ASCII letters: "É" finds "é" there, not on SQLite).
 * - Hong Kong calendar days of ISO-8601 UTC text timestamps (Hong Kong keeps UTC+8 all year).
 * - Product search through an index: the FTS5 trigram table on SQLite, pg_trgm GIN indexes on
 *   PostgreSQL (db/search.ts).
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import { onPostgres } from "./migrations/portable";
import { likePattern } from "./query";

// biome-ignore lint/suspicious/noExplicitAny: any database or transaction, whatever its schema
type AnyDb = Kysely<any>;

/**
 * True when `db` (a database or a transaction on it) talks to PostgreSQL; the Hong Kong calendar
 * day (YYYY-MM-DD) of an ISO-8601 UTC timestamp column. Defined beside the migrations
 * (./migrations/portable), which use the same spellings and freeze them.
 */
export { hongKongDaySql as hongKongDay, onPostgres as isPostgres } from "./migrations/portable";

/** `column` contains `term` anywhere, ignoring case, with LIKE wildcards in `term` taken literally. */
export function containsText(db: AnyDb, column: string, term: string): RawBuilder<boolean> {
  const pattern = likePattern(term);
  return onPostgres(db)
    ? sql<boolean>`${sql.ref(column)} ILIKE ${pattern} ESCAPE '\\'`
    : sql<boolean>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * Holds, until the transaction ends, the lock a read-then-write transaction needs so that two of
 * them for the same rows run one after the other. SQLite: nothing to take, every transaction
 * begins IMMEDIATE and so already holds the database's one write lock (db/connect.server.ts).
 * PostgreSQL (READ COMMITTED): SELECT … FOR UPDATE on the rows where `column` = `value`; a second
 * transaction waits here, then reads what the first committed.
 */
export async function lockRows(trx: AnyDb, table: string, column: string, value: string | number): Promise<void> {
  if (!onPostgres(trx)) return;
  await sql`select 1 from ${sql.table(table)} where ${sql.ref(column)} = ${value} for update`.execute(trx);
}

/**
 * As lockRows, for a rule over a whole table ("one primary account"): on PostgreSQL a SHARE ROW
 * EXCLUSIVE lock, which conflicts with itself and with every write to the table but lets reads go on.
 */
export async function lockTable(trx: AnyDb, table: string): Promise<void> {
  if (!onPostgres(trx)) return;
  await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(trx);
}
