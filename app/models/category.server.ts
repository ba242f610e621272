import type { DB } from "#db/connect.server";
import type { CategoryRow } from "#db/schema";

/** Active categories in the operator's order: the navigation, footer and home tiles. */
export async function listActiveCategories(db: DB): Promise<CategoryRow[]> {
  return db
    .selectFrom("categories")
    .selectAll()
    .where("is_active", "=", 1)
    .orderBy("sort_order")
    .orderBy("id")
    .execute();
}
