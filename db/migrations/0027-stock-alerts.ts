import { type Kysely, sql } from "kysely";
import { serialKey } from "./portable";

// Frozen in time: never import application code here.
// Back-in-stock alerts (docs/decisions/055):
// - stock_alerts: one shopper's wish to hear when one variant (product_variants.id, stable: the
//   editor updates variants in place) is back. `email` is stored lower-cased; `locale` is the
//   language the messages are written in ('en' | 'zh', as users.locale and orders.locale).
//   status: pending (a guest, or an address the account has not proven, that has not followed the
//   confirmation link yet) → active → sent (the back-in-stock e-mail was queued) | cancelled.
//   Only the sha-256 hashes of the links' tokens are kept: confirm_token_hash (cleared once used;
//   confirm_expires_at bounds it) and cancel_token_hash (the "stop this alert" link).
//   product_id is the variant's product, kept for the admin list's count per product.
//   At most one open (pending or active) alert per variant and address: a partial unique index.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("stock_alerts")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("variant_id", "integer", (c) => c.notNull().references("product_variants.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("locale", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("confirm_token_hash", "text")
    .addColumn("confirm_expires_at", "text")
    .addColumn("confirm_sent_at", "text")
    .addColumn("cancel_token_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("cancelled_at", "text")
    .execute();
  // One open alert per variant and address.
  await db.schema
    .createIndex("stock_alerts_open_unique")
    .on("stock_alerts")
    .columns(["variant_id", "email"])
    .unique()
    .where(sql.ref("status"), "in", sql`('pending', 'active')`)
    .execute();
  // "The active alerts of a variant" (the restock's send) and "how many wait per product" (the admin list).
  await db.schema
    .createIndex("stock_alerts_variant_status")
    .on("stock_alerts")
    .columns(["variant_id", "status"])
    .execute();
  await db.schema
    .createIndex("stock_alerts_product_status")
    .on("stock_alerts")
    .columns(["product_id", "status"])
    .execute();
  await db.schema.createIndex("stock_alerts_confirm").on("stock_alerts").column("confirm_token_hash").execute();
  await db.schema.createIndex("stock_alerts_cancel").on("stock_alerts").column("cancel_token_hash").unique().execute();
  await db.schema.createIndex("stock_alerts_user").on("stock_alerts").column("user_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("stock_alerts").ifExists().execute();
}
