import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// Bulk shipping (issue 29 item 4, docs/decisions/061):
// - orders.carrier: who carries the parcel ("SF Express", "Hongkong Post"…), typed by the admin
//   beside the tracking number when the order is marked shipped; null until then, and on orders
//   shipped before this migration. Free text (at most 60 characters, checked by the forms'
//   schemas): a list of carriers would be out of date the day a shop uses a new one.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("carrier", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("carrier").execute();
}
