import { type Kysely, sql } from "kysely";

// Frozen in time: never import application code here.
// Staff accounts and images per colour (docs/decisions/037, 035):
// - admin_users.role: 'owner' (everything, as every admin was before) or 'staff' (orders,
//   products, categories, blog; not settings, bank accounts, exports or staff). Existing admins
//   stay owners. The account named by SHOP_OWNER_EMAIL is an owner whatever this table says.
// - product_images.color: the English colour name (product_variants.color) whose images these
//   are, or null for an image of every colour. Kept by name, as cart lines keep their colour.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("admin_users")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("owner").check(sql`role in ('owner', 'staff')`))
    .execute();
  await db.schema.alterTable("product_images").addColumn("color", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("product_images").dropColumn("color").execute();
  await db.schema.alterTable("admin_users").dropColumn("role").execute();
}
