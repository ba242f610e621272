import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// Webhooks (docs/decisions/046): the owner's receivers of the shop's events (Settings → Webhooks).
// - webhooks: one receiver: its address, the secret its deliveries are signed with, the events it
//   is sent (a JSON array of event names), and whether it is active. Its deliveries are outbox
//   messages (migration 0014) whose webhook_id is this id.
// Whether an address may be http:// or private is a shop-wide setting (site_settings
// `webhooks_allow_private`), not a column.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("secret_created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhooks_created").on("webhooks").columns(["created_at", "id"]).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhooks").ifExists().execute();
}
