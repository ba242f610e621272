import { type Kysely, sql } from "kysely";
import { serialKey } from "./portable";

// Frozen in time: never import application code here.
// Refunds (docs/decisions/057):
// - orders.refunded_cents: the running total given back, in the order's currency (0 until a
//   refund). It is the refunds' compare-and-set key: a refund adds to it only while it still
//   holds the value the admin saw, so two admins cannot give the same money back twice.
// - order_refunds: one refund: its amount (> 0, the order's currency copied), the reason the
//   shopper is told, who recorded it and when.
// - order_refund_lines: the units of each order line a refund put back in stock (a child table,
//   not JSON, so "units already put back" is one SUM per line). The line is kept by id; an order
//   line is never deleted without its order.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("orders")
    .addColumn("refunded_cents", "integer", (c) => c.notNull().defaultTo(0).check(sql`refunded_cents >= 0`))
    .execute();
  await db.schema
    .createTable("order_refunds")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("actor_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_refunds_order").on("order_refunds").columns(["order_id", "id"]).execute();
  await db.schema
    .createTable("order_refund_lines")
    .addColumn("refund_id", "integer", (c) => c.notNull().references("order_refunds.id").onDelete("cascade"))
    .addColumn("order_line_id", "integer", (c) => c.notNull().references("order_lines.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addPrimaryKeyConstraint("order_refund_lines_pk", ["refund_id", "order_line_id"])
    .execute();
  await db.schema.createIndex("order_refund_lines_line").on("order_refund_lines").column("order_line_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("order_refund_lines").ifExists().execute();
  await db.schema.dropTable("order_refunds").ifExists().execute();
  await db.schema.alterTable("orders").dropColumn("refunded_cents").execute();
}
