import { type Kysely, sql } from "kysely";
import { onPostgres } from "./portable";

// Frozen in time: never import application code here.
// The session memo (app/models/sessions.server.ts, docs/decisions/077): on SQLite a process keeps
// the session statement's answer (the session with its user's status, e-mail, admin role and
// cart) in memory, filed under this one-row counter. A trigger on every table that answer reads
// adds one to it in the same transaction as the change, so a session ended, a user blocked, a role
// given or a cart line added is seen by every process at its next request, as 0011 does for the
// catalogue.
//
// SQLite only: it has one writer at a time, so one more row in a write's transaction costs no
// waiting. On PostgreSQL one row raised by every cart and session write would queue those writes
// behind each other; there the table exists (one schema for both) but has no triggers and the
// memo is not used: every request reads its session.

/** The triggers: table, event, and the columns an UPDATE must touch to count (none: any update). */
const TRIGGERS: Array<[table: string, event: "INSERT" | "UPDATE" | "DELETE", columns?: string[]]> = [
  ["sessions", "UPDATE"],
  ["sessions", "DELETE"],
  ["users", "UPDATE", ["email", "status"]],
  ["users", "DELETE"],
  ["admin_users", "INSERT"],
  ["admin_users", "UPDATE"],
  ["admin_users", "DELETE"],
  ["carts", "INSERT"],
  ["carts", "UPDATE", ["id", "user_id"]],
  ["carts", "DELETE"],
  ["cart_lines", "INSERT"],
  ["cart_lines", "UPDATE", ["cart_id"]],
  ["cart_lines", "DELETE"],
];

function triggerName(table: string, event: string): string {
  return `${table}_visitor_${event.toLowerCase()}`;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("visitor_version")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull())
    .execute();
  await db.insertInto("visitor_version").values({ id: 1, version: 1 }).execute();
  if (onPostgres(db)) return;
  for (const [table, event, columns] of TRIGGERS) {
    const of = columns ? ` OF ${columns.map((c) => `"${c}"`).join(", ")}` : "";
    await sql
      .raw(
        `CREATE TRIGGER "${triggerName(table, event)}" AFTER ${event}${of} ON "${table}" ` +
          "BEGIN UPDATE visitor_version SET version = version + 1 WHERE id = 1; END",
      )
      .execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!onPostgres(db)) {
    for (const [table, event] of TRIGGERS) {
      await sql.raw(`DROP TRIGGER IF EXISTS "${triggerName(table, event)}"`).execute(db);
    }
  }
  await db.schema.dropTable("visitor_version").ifExists().execute();
}
