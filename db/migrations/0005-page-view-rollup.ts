import { type Kysely, sql } from "kysely";
import { hongKongDaySql } from "./portable";

// Frozen in time: never import application code here.
// Rollups of page_views kept by the recorder in the same transaction as the view, so the
// dashboard reads a few hundred rows instead of counting every view (docs/decisions/010).
// A "day" is the Hong Kong date (UTC+8, no daylight saving) as YYYY-MM-DD.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  // visitors: distinct sessions that day; new_visitors: sessions first seen that day, so the
  // all-time unique visitors are a sum over days.
  await db.schema
    .createTable("page_view_days")
    .addColumn("day", "text", (c) => c.primaryKey())
    .addColumn("views", "integer", (c) => c.notNull())
    .addColumn("visitors", "integer", (c) => c.notNull())
    .addColumn("new_visitors", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("page_view_paths")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("views", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("page_view_paths_pk", ["day", "path"])
    .execute();
  await db.schema
    .createTable("page_view_day_sessions")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("page_view_day_sessions_pk", ["day", "session_id"])
    .execute();
  await db.schema
    .createTable("page_view_sessions")
    .addColumn("session_id", "text", (c) => c.primaryKey())
    .addColumn("first_day", "text", (c) => c.notNull())
    .execute();

  // Backfill from the views recorded so far; timestamps are ISO-8601 UTC text.
  const day = hongKongDaySql(db, "created_at");
  await sql`
    insert into page_view_sessions (session_id, first_day)
    select session_id, min(${day}) from page_views group by session_id
  `.execute(db);
  await sql`
    insert into page_view_day_sessions (day, session_id)
    select distinct ${day}, session_id from page_views
  `.execute(db);
  await sql`
    insert into page_view_paths (day, path, views)
    select ${day} as d, path, count(*) from page_views group by d, path
  `.execute(db);
  await sql`
    insert into page_view_days (day, views, visitors, new_visitors)
    select v.d, v.views, v.visitors, coalesce(f.n, 0)
    from (
      select ${day} as d, count(*) as views, count(distinct session_id) as visitors
      from page_views group by d
    ) as v
    left join (
      select first_day, count(*) as n from page_view_sessions group by first_day
    ) as f on f.first_day = v.d
  `.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["page_view_sessions", "page_view_day_sessions", "page_view_paths", "page_view_days"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
