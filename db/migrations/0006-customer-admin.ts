import { type Kysely, sql } from "kysely";

// Frozen in time: never import application code here.
// Indexes for the admin Customers screen: the newest-first list, the exact-match searches
// (last IP address, country, city), the per-customer order totals and the 30-day IP activity.
// users(email) is unique already (0001) and e-mails are stored lower-cased.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("users_created").on("users").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("users_last_login_ip").on("users").column("last_login_ip").execute();
  await db.schema.createIndex("users_country").on("users").column("country").execute();
  await db.schema.createIndex("users_city_lower").on("users").expression(sql`lower(city)`).execute();
  await db.schema.createIndex("users_status").on("users").column("status").execute();
  await db.schema
    .createIndex("orders_customer_totals")
    .on("orders")
    .columns(["user_id", "status", "currency", "total_cents"])
    .execute();
  await db.schema.createIndex("sign_in_events_created").on("sign_in_events").column("created_at").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    "sign_in_events_created",
    "orders_customer_totals",
    "users_status",
    "users_city_lower",
    "users_country",
    "users_last_login_ip",
    "users_created",
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
