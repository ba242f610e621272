import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely";

// Frozen in time like the migrations that use it: the few column and expression spellings that
// differ between SQLite and PostgreSQL. A migration branches on the dialect only through these
// (or, for whole features such as search, on onPostgres itself).

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
type AnyDb = Kysely<any>;

export function onPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An integer primary key the database numbers: AUTOINCREMENT on SQLite, an identity column on PostgreSQL. */
export function serialKey(db: AnyDb) {
  return (column: ColumnDefinitionBuilder) =>
    onPostgres(db) ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
}

/** The Hong Kong day (YYYY-MM-DD, UTC+8 all year) of an ISO-8601 UTC text timestamp column. */
export function hongKongDaySql(db: AnyDb, column: string): RawBuilder<string> {
  return onPostgres(db)
    ? sql<string>`to_char(cast(${sql.ref(column)} as timestamptz) at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD')`
    : sql<string>`date(${sql.ref(column)}, '+8 hours')`;
}
