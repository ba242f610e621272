import { type Kysely, sql } from "kysely";
import { onPostgres } from "./portable";

// Frozen in time: never import application code here.
// Age confirmation (issue 27, docs/decisions/049):
// - products.adult_only / categories.adult_only: 1 marks it 18+; a product is 18+ when it or its
//   category is. Every existing product and category starts at 0, so checkout is unchanged.
// - orders.age_confirmed_at / age_confirmed_ip: when the shopper ticked "I am 18 or older" and the
//   client address of that request; both null on an order without 18+ items.
// - product_ship_zones / category_ship_zones: the zones (migration 0018) a product or a whole
//   category may be sent to; no rows: everywhere the shop ships. A product's allowed zones are
//   the intersection of its own and its category's. A deleted zone, product or category takes
//   its rows with it.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["products", "categories"]) {
    await db.schema
      .alterTable(table)
      .addColumn("adult_only", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable("orders").addColumn("age_confirmed_at", "text").execute();
  await db.schema.alterTable("orders").addColumn("age_confirmed_ip", "text").execute();
  await db.schema
    .createTable("product_ship_zones")
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("zone_id", "integer", (c) => c.notNull().references("shipping_zones.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("product_ship_zones_pk", ["product_id", "zone_id"])
    .execute();
  await db.schema
    .createTable("category_ship_zones")
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id").onDelete("cascade"))
    .addColumn("zone_id", "integer", (c) => c.notNull().references("shipping_zones.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("category_ship_zones_pk", ["category_id", "zone_id"])
    .execute();
  // The product page says where a product ships: a change renews cached pages (migration 0011's triggers).
  for (const table of LIMIT_TABLES) {
    if (onPostgres(db)) {
      await sql`CREATE TRIGGER ${sql.id(`${table}_page_cache`)}
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_page_cache_version()`.execute(db);
    } else {
      for (const event of ["INSERT", "UPDATE", "DELETE"]) {
        await sql
          .raw(
            `CREATE TRIGGER "${table}_page_cache_${event.toLowerCase()}" AFTER ${event} ON "${table}" ` +
              "BEGIN UPDATE page_cache_version SET version = version + 1 WHERE id = 1; END",
          )
          .execute(db);
      }
    }
  }
}

const LIMIT_TABLES = ["product_ship_zones", "category_ship_zones"];

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("category_ship_zones").ifExists().execute();
  await db.schema.dropTable("product_ship_zones").ifExists().execute();
  await db.schema.alterTable("orders").dropColumn("age_confirmed_ip").execute();
  await db.schema.alterTable("orders").dropColumn("age_confirmed_at").execute();
  for (const table of ["categories", "products"]) {
    await db.schema.alterTable(table).dropColumn("adult_only").execute();
  }
}
