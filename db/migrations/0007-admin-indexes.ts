import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// Indexes for the admin Orders and Customers screens at 50,000 orders and 10,000 customers
// (docs/decisions/011-admin-at-scale.md; measured by npm run bench:admin):
// - orders newest first with the id as tie-break, with and without a status: the index holds the
//   whole ORDER BY, so a page reads OFFSET + 25 index entries instead of fetching every row to
//   sort by id. They extend, and replace, orders_created and orders_status_created (0001).
// - accounts newest first with every column the Customers list shows and searches: a search (an
//   e-mail substring has no index) and its page read this index only, never the table. It
//   extends, and replaces, users_created (0006).
// - successful sign-ins by time with their address and account: the 30-day IP activity reads
//   the window from the index only, not every sign-in that has an address.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_created_id").on("orders").columns(["created_at", "id"]).execute();
  await db.schema
    .createIndex("orders_status_created_id")
    .on("orders")
    .columns(["status", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("orders_created").ifExists().execute();
  await db.schema.dropIndex("orders_status_created").ifExists().execute();

  await db.schema
    .createIndex("users_list")
    .on("users")
    .columns(["created_at", "id", "email", "status", "last_login_ip", "country", "city", "last_login_at"])
    .execute();
  await db.schema.dropIndex("users_created").ifExists().execute();

  await db.schema
    .createIndex("sign_in_events_ip_activity")
    .on("sign_in_events")
    .columns(["success", "created_at", "ip", "user_id"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("sign_in_events_ip_activity").ifExists().execute();
  await db.schema.createIndex("users_created").on("users").columns(["created_at", "id"]).execute();
  await db.schema.dropIndex("users_list").ifExists().execute();
  await db.schema.createIndex("orders_status_created").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("orders_created").on("orders").column("created_at").execute();
  await db.schema.dropIndex("orders_status_created_id").ifExists().execute();
  await db.schema.dropIndex("orders_created_id").ifExists().execute();
}
