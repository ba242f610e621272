import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// The sign-in, sign-up and password-reset throttles keep their fixed-window counters here
// instead of in one process's memory, so several app processes on one database share them
// (docs/decisions/027). `key` is "<limiter>:<client address or account>"; `reset_at` is the end
// of the current window as ISO-8601 UTC text, the format every table stores (it compares
// correctly as text, on SQLite and on PostgreSQL).

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limit_hits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("reset_at", "text", (c) => c.notNull())
    .execute();
  // Expired windows are deleted by reset_at.
  await db.schema.createIndex("rate_limit_hits_reset_at").on("rate_limit_hits").column("reset_at").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limit_hits").ifExists().execute();
}
