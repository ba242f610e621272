import type { Kysely } from "kysely";
import { serialKey } from "./portable";

// Frozen in time: never import application code here.
// Issue 29 items 5 and 6 (docs/decisions/058):
// - order_notes: the team's internal notes on an order (never shown to the shopper). A note goes
//   with its order (cascade); its author's account may go, the note stays (set null). The body is
//   at most 2,000 characters (checked by the form's schema). Listed per order by time.
// - indexes for the sortable admin lists, so each sort walks an index to the page's LIMIT at
//   10,000 products and 50,000 orders: products by name (each language) with the id as
//   tie-break; orders by total and by e-mail (the id as tie-break); accounts by status (the
//   unique e-mail as tie-break). orders_email_id and users_status_email extend, and replace,
//   orders_email (0001) and users_status (0006). The other sorts have theirs:
//   accounts by e-mail the unique users.email index, products by price the 0008 indexes, orders by
//   number the unique order_number index, by status orders_status_created_id and by date
//   orders_created_id (0007).

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("order_notes")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("author_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_notes_order").on("order_notes").columns(["order_id", "id"]).execute();

  await db.schema.createIndex("products_name_en_id").on("products").columns(["name_en", "id"]).execute();
  await db.schema.createIndex("products_name_zh_id").on("products").columns(["name_zh", "id"]).execute();
  await db.schema.createIndex("orders_total_id").on("orders").columns(["total_cents", "id"]).execute();
  await db.schema.createIndex("orders_email_id").on("orders").columns(["email", "id"]).execute();
  await db.schema.createIndex("users_status_email").on("users").columns(["status", "email"]).execute();
  // Extended, and replaced: the e-mail search's prefix range and the status count use the new ones.
  await db.schema.dropIndex("orders_email").ifExists().execute();
  await db.schema.dropIndex("users_status").ifExists().execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("users_status").on("users").column("status").execute();
  await db.schema.createIndex("orders_email").on("orders").column("email").execute();
  await db.schema.dropIndex("users_status_email").ifExists().execute();
  await db.schema.dropIndex("orders_email_id").ifExists().execute();
  await db.schema.dropIndex("orders_total_id").ifExists().execute();
  await db.schema.dropIndex("products_name_zh_id").ifExists().execute();
  await db.schema.dropIndex("products_name_en_id").ifExists().execute();
  await db.schema.dropTable("order_notes").ifExists().execute();
}
