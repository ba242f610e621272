import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// Payment deadlines for orders paid by bank transfer (docs/decisions/034):
// - payment_due_at: when an unpaid order without a receipt waiting for review is cancelled;
//   set when the order is placed (its window then), moved only by an admin's extension. Orders
//   placed before this migration have none and are never cancelled by the shop.
// - payment_reminder_due_at / payment_reminded_at: halfway through the window one reminder
//   e-mail; the second column is set in the same statement that claims the reminder.
// - payment_expired_at: the shop cancelled the order for want of payment (status cancelled).
// - scheduled_jobs: one row per job the shop runs on a timer; a process runs a job only after
//   claiming its row (locked_until in the past), so several processes run it once a minute.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ["payment_due_at", "payment_reminder_due_at", "payment_reminded_at", "payment_expired_at"]) {
    await db.schema.alterTable("orders").addColumn(column, "text").execute();
  }
  // The job's two questions, "which unpaid orders are due", each a range on one index.
  await db.schema.createIndex("orders_status_due").on("orders").columns(["status", "payment_due_at"]).execute();
  await db.schema
    .createIndex("orders_status_reminder_due")
    .on("orders")
    .columns(["status", "payment_reminder_due_at"])
    .execute();
  // The receipt review queue, oldest receipt first.
  await db.schema
    .createIndex("orders_status_receipt_uploaded")
    .on("orders")
    .columns(["status", "receipt_uploaded_at"])
    .execute();
  await db.schema
    .createTable("scheduled_jobs")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("locked_until", "text", (c) => c.notNull())
    .addColumn("last_started_at", "text")
    .addColumn("last_finished_at", "text")
    .addColumn("last_result", "text")
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("scheduled_jobs").ifExists().execute();
  for (const index of ["orders_status_due", "orders_status_reminder_due", "orders_status_receipt_uploaded"]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  for (const column of ["payment_due_at", "payment_reminder_due_at", "payment_reminded_at", "payment_expired_at"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
}
