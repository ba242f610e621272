import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// Product identifiers for shopping feeds and structured data (issue 28 item 5, docs/decisions/056):
// - gtin: the barcode number (GTIN-8, UPC-A 12, EAN-13 or GTIN-14: digits only, check digit
//   verified by the application), null when the product has none;
// - mpn: the manufacturer's part number (at most 70 characters), null when none.
// Both optional text; the catalogue's page-cache triggers (migration 0011) already cover the
// products table, so a change shows on cached product pages at once.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").addColumn("gtin", "text").execute();
  await db.schema.alterTable("products").addColumn("mpn", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("products").dropColumn("mpn").execute();
  await db.schema.alterTable("products").dropColumn("gtin").execute();
}
