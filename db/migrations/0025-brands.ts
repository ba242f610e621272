import { type Kysely, sql } from "kysely";
import { onPostgres, serialKey } from "./portable";

// Frozen in time: never import application code here.
// Brands (issue 28, docs/decisions/052):
// - brands: a proper noun shown in both languages (`name`), an optional Chinese name (`name_zh`,
//   null: the same name in Chinese), a unique URL slug (?brand=tokyo-marui), the operator's order,
//   is_demo for the demo catalogue's brands (removed with it).
// - products.brand_id: nullable; a brand products still use cannot be deleted (the model refuses
//   with a message, the foreign key backs it). Every existing product starts without a brand.
// Listings and the product page show brands: a change renews cached pages (migration 0011's triggers).

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("brands")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("name_zh", "text")
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    // 1: written by the demo catalogue, removed with it (like products.is_demo).
    .addColumn("is_demo", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable("products")
    .addColumn("brand_id", "integer", (c) => c.references("brands.id"))
    .execute();
  await db.schema.createIndex("products_brand_id_idx").on("products").column("brand_id").execute();
  if (onPostgres(db)) {
    await sql`CREATE TRIGGER brands_page_cache
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON brands
      FOR EACH STATEMENT EXECUTE FUNCTION bump_page_cache_version()`.execute(db);
  } else {
    for (const event of ["INSERT", "UPDATE", "DELETE"]) {
      await sql
        .raw(
          `CREATE TRIGGER "brands_page_cache_${event.toLowerCase()}" AFTER ${event} ON "brands" ` +
            "BEGIN UPDATE page_cache_version SET version = version + 1 WHERE id = 1; END",
        )
        .execute(db);
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("products_brand_id_idx").ifExists().execute();
  await db.schema.alterTable("products").dropColumn("brand_id").execute();
  await db.schema.dropTable("brands").ifExists().execute();
}
