import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// "All products" sorted by price walks one of these to the page's LIMIT instead of reading and
// sorting every product (the category indexes all lead with category_id).

const CURRENCIES = ["hkd", "gbp", "eur", "usd"] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  for (const currency of CURRENCIES) {
    await db.schema
      .createIndex(`products_price_${currency}`)
      .on("products")
      .column(`price_${currency}_cents`)
      .execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const currency of CURRENCIES) {
    await db.schema.dropIndex(`products_price_${currency}`).execute();
  }
}
