import type { Kysely } from "kysely";
import { serialKey } from "./portable";

// Frozen in time: never import application code here.
// Discount codes (docs/decisions/048):
// - discount_codes: one code, stored normalised (trimmed, upper case) so that "summer10" and
//   "SUMMER10" are one code (a unique index on `code`). `kind` is percent (percent_bp, basis
//   points: 1250 = 12.5 %), fixed (amount_*_cents per currency; an empty one follows HKD at the
//   shop's rate) or free_shipping; `free_shipping` adds free delivery to the first two kinds.
//   min_*_cents: the minimum spend per currency (empty follows HKD; all empty: none).
//   starts_at/ends_at: instants (ISO-8601 UTC), entered in Hong Kong time. max_uses and
//   max_uses_per_customer: null is unlimited. uses_count is the number of uses not given back,
//   raised by a conditional update in the order's own transaction (never above max_uses).
//   applies_to: all products, or only the chosen categories/products (the two join tables).
// - discount_uses: one row per order that used a code; released_at is set (once, by a
//   conditional update) when the order is cancelled or expires and the use is given back.
// - orders: the code and the amount taken off (a snapshot: the code may change later).
// - carts: the code the shopper applied to their cart (checked again every time it is priced).

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable("discount_codes")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("percent_bp", "integer")
    .addColumn("free_shipping", "integer", (c) => c.notNull().defaultTo(0));
  for (const currency of ["hkd", "gbp", "eur", "usd"]) {
    table = table.addColumn(`amount_${currency}_cents`, "integer").addColumn(`min_${currency}_cents`, "integer");
  }
  await table
    .addColumn("starts_at", "text")
    .addColumn("ends_at", "text")
    .addColumn("max_uses", "integer")
    .addColumn("max_uses_per_customer", "integer")
    .addColumn("uses_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("applies_to", "text", (c) => c.notNull().defaultTo("all"))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("discount_codes_code").on("discount_codes").column("code").unique().execute();

  await db.schema
    .createTable("discount_code_categories")
    .addColumn("discount_id", "integer", (c) => c.notNull().references("discount_codes.id").onDelete("cascade"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("discount_code_categories_pk", ["discount_id", "category_id"])
    .execute();
  await db.schema
    .createTable("discount_code_products")
    .addColumn("discount_id", "integer", (c) => c.notNull().references("discount_codes.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("discount_code_products_pk", ["discount_id", "product_id"])
    .execute();

  await db.schema
    .createTable("discount_uses")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("discount_id", "integer", (c) => c.notNull().references("discount_codes.id").onDelete("restrict"))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "text")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("released_at", "text")
    .execute();
  await db.schema.createIndex("discount_uses_order").on("discount_uses").column("order_id").unique().execute();
  await db.schema.createIndex("discount_uses_user").on("discount_uses").columns(["discount_id", "user_id"]).execute();
  await db.schema.createIndex("discount_uses_email").on("discount_uses").columns(["discount_id", "email"]).execute();

  await db.schema.alterTable("orders").addColumn("discount_code", "text").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("discount_cents", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("carts").addColumn("discount_code", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("carts").dropColumn("discount_code").execute();
  await db.schema.alterTable("orders").dropColumn("discount_cents").execute();
  await db.schema.alterTable("orders").dropColumn("discount_code").execute();
  await db.schema.dropTable("discount_uses").ifExists().execute();
  await db.schema.dropTable("discount_code_products").ifExists().execute();
  await db.schema.dropTable("discount_code_categories").ifExists().execute();
  await db.schema.dropTable("discount_codes").ifExists().execute();
}
