import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// The payment form carries a one-time key: the same submission sent twice (double click,
// refresh, back) finds the order it already made instead of making another.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("submission_key", "text").execute();
  await db.schema.createIndex("orders_submission_key").on("orders").column("submission_key").unique().execute();
  await db.schema.createIndex("cart_lines_cart").on("cart_lines").column("cart_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("cart_lines_cart").execute();
  await db.schema.dropIndex("orders_submission_key").execute();
  await db.schema.alterTable("orders").dropColumn("submission_key").execute();
}
