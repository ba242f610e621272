import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// Indexes for Admin → Messages and the outbox's retention at 100,000 messages (issue 26). A
// message row is large (its rendered e-mail sits in the middle of it), so a filter must be
// answered from an index and only the page's rows read from the table:
// - by status, newest first (waiting, sent, failed), with the channel for the channel filter;
// - by channel, newest first (e-mails or webhooks, any status);
// - by recipient (a search is a prefix of the address), newest first;
// - sent messages by when they were sent: the scheduler's pruning of those past retention reads
//   only those, not every sent message, once a minute.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("outbox_status_list")
    .on("outbox_messages")
    .columns(["status", "created_at", "id", "channel"])
    .execute();
  await db.schema
    .createIndex("outbox_channel_list")
    .on("outbox_messages")
    .columns(["channel", "created_at", "id"])
    .execute();
  await db.schema.createIndex("outbox_recipient").on("outbox_messages").columns(["recipient", "created_at"]).execute();
  await db.schema.createIndex("outbox_status_sent").on("outbox_messages").columns(["status", "sent_at"]).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ["outbox_status_sent", "outbox_recipient", "outbox_channel_list", "outbox_status_list"]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
