import type { DB } from "#db/connect.server";

/** Every row of the page-view tables, in a stable order (row ids left out of page_views). */
export async function pageViewTables(db: DB) {
  return {
    views: await db
      .selectFrom("page_views")
      .select(["path", "session_id", "user_id", "user_agent", "referrer", "created_at"])
      .orderBy("created_at")
      .orderBy("session_id")
      .orderBy("path")
      .execute(),
    days: await db.selectFrom("page_view_days").selectAll().orderBy("day").execute(),
    paths: await db.selectFrom("page_view_paths").selectAll().orderBy("day").orderBy("path").execute(),
    daySessions: await db
      .selectFrom("page_view_day_sessions")
      .selectAll()
      .orderBy("day")
      .orderBy("session_id")
      .execute(),
    sessions: await db.selectFrom("page_view_sessions").selectAll().orderBy("session_id").execute(),
  };
}
