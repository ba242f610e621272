/**
 * Product search, the same rules on both databases: partial and case-insensitive in the English
 * name, the Chinese name or the category (slug and both names); terms of 3+ characters through
 * an index, 2-character terms (common in Chinese: 手槍, 背心) by a plain partial match. A search
 * may ask for several terms at once (the shopper's term and its synonyms, decision 043): a
 * product matches when it matches any of them. A product matches its brand's name too
 * (decision 052): the brands whose name, Chinese name or slug contains a term are looked up
 * first (a short list, read whole) and their products found through `products_brand_id_idx`, so
 * a renamed brand is found by its new name at once, with nothing to re-index.
 *
 * - SQLite: the FTS5 trigram table `product_search`, kept in step by triggers (migration 0003);
 *   the 3+ character terms go into one MATCH as a disjunction of phrases.
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

/** An FTS5 phrase: the term in double quotes (a quote inside doubled), so nothing in it is syntax. */
const ftsPhrase = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** The ids of the brands whose name, Chinese name or slug contains any of `terms` (decision 052). */
export async function brandIdsMatching(db: AnyDb, terms: readonly string[]): Promise<number[]> {
  if (terms.length === 0) return [];
  const rows: { id: number }[] = await db
    .selectFrom("brands")
    .select("id")
    .where(
      () =>
        sql<boolean>`(${sql.join(
          terms.flatMap((term) => [
            containsText(db, "name", term),
            containsText(db, "name_zh", term),
            containsText(db, "slug", term),
          ]),
          sql` OR `,
        )})`,
    )
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A where-callback on `products` keeping those that match any of `terms` (already normalised,
 * 2+ characters each; at least one), or whose brand is one of `brandIds` (`brandIdsMatching`).
 */
export function matchProductSearch(db: AnyDb, terms: readonly string[], brandIds: readonly number[] = []) {
  const all = [...new Set(terms)];
  const indexed = isPostgres(db) ? [] : all.filter((term) => [...term].length >= 3);
  const partial = all.filter((term) => !indexed.includes(term));
  return (eb: ProductsEb) => {
    const matches = [];
    if (indexed.length > 0) {
      matches.push(
        eb(
          "products.id",
          "in",
          eb
            .selectFrom("product_search")
            .select("product_search.rowid")
            .where(sql<boolean>`product_search MATCH ${indexed.map(ftsPhrase).join(" OR ")}`),
        ),
      );
    }
    if (partial.length > 0) {
      matches.push(
        eb.or([
          ...partial.flatMap((term) => [
            containsText(db, "products.name_en", term),
            containsText(db, "products.name_zh", term),
          ]),
          eb(
            "products.category_id",
            "in",
            eb
              .selectFrom("categories")
              .select("categories.id")
              .where((c) =>
                c.or(
                  partial.flatMap((term) => [
                    containsText(db, "categories.slug", term),
                    containsText(db, "categories.name_en", term),
                    containsText(db, "categories.name_zh", term),
                  ]),
                ),
              ),
          ),
        ]),
      );
    }
    if (brandIds.length > 0) matches.push(eb("products.brand_id", "in", [...brandIds]));
    return matches.length === 1 ? (matches[0] as (typeof matches)[number]) : eb.or(matches);
  };
}
