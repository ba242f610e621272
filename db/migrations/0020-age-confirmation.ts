import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// Age confirmation (issue 27, docs/decisions/049):
// - products.adult_only / categories.adult_only: 1 marks it 18+; a product is 18+ when it or its
//   category is. Every existing product and category starts at 0, so checkout is unchanged.
// - orders.age_confirmed_at / age_confirmed_ip: when the shopper ticked "I am 18 or older" and the
//   client address of that request; both null on an order without 18+ items.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["products", "categories"]) {
    await db.schema
      .alterTable(table)
      .addColumn("adult_only", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable("orders").addColumn("age_confirmed_at", "text").execute();
  await db.schema.alterTable("orders").addColumn("age_confirmed_ip", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("age_confirmed_ip").execute();
  await db.schema.alterTable("orders").dropColumn("age_confirmed_at").execute();
  for (const table of ["categories", "products"]) {
    await db.schema.alterTable(table).dropColumn("adult_only").execute();
  }
}
