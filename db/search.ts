/**
 * Product search, the same rules on both databases: partial and case-insensitive in the English
 * name, the Chinese name or the category (slug and both names); terms of 3+ characters through
 * an index, 2-character terms (common in Chinese: 手槍, 背心) by a plain partial match.
 *
 * - SQLite: the FTS5 trigram table `product_search`, kept in step by triggers (migration 0003).
 * - PostgreSQL: pg_trgm GIN indexes on the product and category names (migration 0003), which
 *   serve ILIKE '%term%' directly, so one expression covers every length there.
 */
import type { ExpressionBuilder } from "kysely";
import { sql } from "kysely";
import { containsText, isPostgres } from "./dialect";
import type { Database } from "./schema";

// biome-ignore lint/suspicious/noExplicitAny: any database or transaction on this schema
type AnyDb = import("kysely").Kysely<any>;
type ProductsEb = ExpressionBuilder<Database & { products: Database["products"] }, "products">;

/** A where-callback on `products` keeping those that match `term` (already normalised, 2+ characters). */
export function matchProductSearch(db: AnyDb, term: string) {
  return (eb: ProductsEb) => {
    if ([...term].length >= 3 && !isPostgres(db)) {
      const phrase = `"${term.replace(/"/g, '""')}"`;
      return eb(
        "products.id",
        "in",
        eb
          .selectFrom("product_search")
          .select("product_search.rowid")
          .where(sql<boolean>`product_search MATCH ${phrase}`),
      );
    }
    return eb.or([
      containsText(db, "products.name_en", term),
      containsText(db, "products.name_zh", term),
      eb(
        "products.category_id",
        "in",
        eb
          .selectFrom("categories")
          .select("categories.id")
          .where((c) =>
            c.or([
              containsText(db, "categories.slug", term),
              containsText(db, "categories.name_en", term),
              containsText(db, "categories.name_zh", term),
            ]),
          ),
      ),
    ]);
  };
}
