import type { Kysely } from "kysely";
import { serialKey } from "./portable";

// Frozen in time: never import application code here.
// The outbox (docs/decisions/044): every outgoing message — an e-mail to a shopper, a member of
// staff or the shop itself, a webhook delivery — is a row written in the same transaction as the
// event that causes it, then sent by the shop's scheduler with retries.
// - outbox_messages: one message; `status` pending → sending → sent, or failed after its retry
//   window; a claim (`sending` until `claimed_until`) that outlives its process is taken again
//   (at-least-once delivery, recognisable by `message_key`, the stable Message-ID).
// - outbox_attempts: every delivery attempt, with the transport's answer (the delivery log).

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("outbox_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("audience", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("message_key", "text", (c) => c.notNull().unique())
    .addColumn("order_id", "text")
    .addColumn("webhook_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("give_up_at", "text", (c) => c.notNull())
    .addColumn("claimed_until", "text")
    .addColumn("last_error", "text")
    .addColumn("last_response_status", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .addColumn("failed_at", "text")
    .execute();
  // What is due: pending by its next attempt, and claims that outlived their process.
  await db.schema
    .createIndex("outbox_status_next")
    .on("outbox_messages")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("outbox_status_claimed")
    .on("outbox_messages")
    .columns(["status", "claimed_until"])
    .execute();
  await db.schema.createIndex("outbox_order").on("outbox_messages").columns(["order_id", "created_at"]).execute();
  await db.schema.createIndex("outbox_created").on("outbox_messages").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("outbox_webhook").on("outbox_messages").columns(["webhook_id", "created_at"]).execute();
  await db.schema
    .createTable("outbox_attempts")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("message_id", "text", (c) => c.notNull().references("outbox_messages.id").onDelete("cascade"))
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .addColumn("ok", "integer", (c) => c.notNull())
    .addColumn("response_status", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("outbox_attempts_message")
    .on("outbox_attempts")
    .columns(["message_id", "attempted_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("outbox_attempts").ifExists().execute();
  await db.schema.dropTable("outbox_messages").ifExists().execute();
}
