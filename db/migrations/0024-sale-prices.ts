import { type Kysely, sql } from "kysely";

// Frozen in time: never import application code here.
// Sale prices (issue 28 item 3, docs/decisions/053). The price_* columns stay the regular price;
// a sale is:
// - sale_price_hkd_cents: the price paid while the sale lasts (null: no sale);
// - sale_price_{gbp,eur,usd}_cents with their _derived flag, like the regular prices: typed by
//   the owner, or derived from the HKD sale price at the shop's exchange rate (1);
// - sale_ends_at: when it ends (ISO-8601 UTC text, as every timestamp), null: until removed.
// Nothing has to be written when a sale ends: every query compares sale_ends_at with now.
//
// Listings sort and filter by the price the shopper pays. The "listed price" of a currency is the
// sale price when it is below the regular one, else the regular one; it is the expression these
// indexes hold (deterministic: it ignores the end, which the listing handles by reading the few
// products whose sale has ended apart, through products_sale_ends).

const CURRENCIES = ["hkd", "gbp", "eur", "usd"] as const;

function listedPrice(currency: string): string {
  return `(case when sale_price_${currency}_cents < price_${currency}_cents then sale_price_${currency}_cents else price_${currency}_cents end)`;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  for (const currency of CURRENCIES) {
    await db.schema.alterTable("products").addColumn(`sale_price_${currency}_cents`, "integer").execute();
  }
  for (const currency of CURRENCIES.slice(1)) {
    await db.schema
      .alterTable("products")
      .addColumn(`sale_price_${currency}_derived`, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable("products").addColumn("sale_ends_at", "text").execute();
  await db.schema.createIndex("products_sale_ends").on("products").column("sale_ends_at").execute();
  for (const currency of CURRENCIES) {
    await sql.raw(`CREATE INDEX products_listed_price_${currency} ON products (${listedPrice(currency)})`).execute(db);
    await sql
      .raw(
        `CREATE INDEX products_category_listed_price_${currency} ON products (category_id, ${listedPrice(currency)})`,
      )
      .execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const currency of CURRENCIES) {
    await db.schema.dropIndex(`products_listed_price_${currency}`).ifExists().execute();
    await db.schema.dropIndex(`products_category_listed_price_${currency}`).ifExists().execute();
  }
  await db.schema.dropIndex("products_sale_ends").ifExists().execute();
  const columns = [
    ...CURRENCIES.map((currency) => `sale_price_${currency}_cents`),
    ...CURRENCIES.slice(1).map((currency) => `sale_price_${currency}_derived`),
    "sale_ends_at",
  ];
  for (const column of columns) {
    await db.schema.alterTable("products").dropColumn(column).execute();
  }
}
