import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import type { OutboxChannel } from "#db/schema";
import type { MailMessage } from "~/lib/mail.server";
import { wakeOutbox } from "./wake.server";

/*
 * Writing to the outbox (docs/decisions/044). A message is a row written with the same `db` —
 * the transaction — as the event that causes it: the order insert, the status change. If the
 * transaction rolls back, there is no message; if it commits, the message will be sent, by this
 * process at once (wakeOutbox) or by the scheduler's next run in any process, with retries.
 */

/** How long a failing message is tried again before it is marked failed. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Who a message is for, shown on Admin → Messages. */
export type OutboxAudience = "customer" | "staff" | "shop" | "webhook";

/** What the outbox keeps of a rendered e-mail (its payload). */
export interface OutboxEmail {
  from?: string;
  replyTo?: string;
  text: string;
  html: string;
}

export interface QueueMeta {
  /** What caused it, as noun.verb: `order.placed`, `account.reset`, `alert.order.placed`… */
  event: string;
  audience: OutboxAudience;
  /** The recipient's language, in which the message was rendered. */
  language: string;
  /** The order it belongs to, shown on the admin order page. */
  orderId?: string | null;
}

/** The domain of an address (`"Shop" <orders@shop.hk>` → `shop.hk`), for the Message-ID. */
function domainOf(from: string | undefined): string {
  const match = from?.match(/@([A-Za-z0-9.-]+)>?\s*$/);
  return match?.[1]?.toLowerCase() ?? "shop.invalid";
}

interface QueueRow {
  channel: OutboxChannel;
  recipient: string;
  subject: string;
  payload: string;
  messageKey: string;
  webhookId?: string | null;
  at: Date;
}

async function insertMessage(db: DB, row: QueueRow & QueueMeta & { id: string }): Promise<string> {
  const timestamp = now(row.at);
  await db
    .insertInto("outbox_messages")
    .values({
      id: row.id,
      channel: row.channel,
      event: row.event,
      audience: row.audience,
      recipient: row.recipient,
      language: row.language,
      subject: row.subject,
      payload: row.payload,
      message_key: row.messageKey,
      order_id: row.orderId ?? null,
      webhook_id: row.webhookId ?? null,
      status: "pending",
      attempts: 0,
      next_attempt_at: timestamp,
      give_up_at: now(new Date(row.at.getTime() + RETRY_WINDOW_MS)),
      claimed_until: null,
      last_error: null,
      last_response_status: null,
      created_at: timestamp,
      updated_at: timestamp,
      sent_at: null,
      failed_at: null,
    })
    .execute();
  wakeOutbox();
  return row.id;
}

/**
 * Puts a rendered e-mail (renderLocalizedEmail) into the outbox, in the caller's transaction.
 * It carries a Message-ID of its own, kept across retries. Returns the message's id.
 */
export async function queueEmail(
  db: DB,
  message: MailMessage,
  meta: QueueMeta,
  at: Date = new Date(),
): Promise<string> {
  const id = crypto.randomUUID();
  const payload: OutboxEmail = { from: message.from, replyTo: message.replyTo, text: message.text, html: message.html };
  return insertMessage(db, {
    ...meta,
    id,
    channel: "email",
    recipient: message.to,
    subject: message.subject,
    payload: JSON.stringify(payload),
    messageKey: `<${id}@${domainOf(message.from)}>`,
    at,
  });
}

/**
 * Puts one webhook delivery into the outbox, in the caller's transaction: `body` is the JSON
 * text that is POSTed (and signed) as it is on every attempt; `deliveryId` is its stable id.
 */
export async function queueWebhookDelivery(
  db: DB,
  delivery: { webhookId: string; url: string; eventName: string; body: string; deliveryId: string },
  meta: Omit<QueueMeta, "audience">,
  at: Date = new Date(),
): Promise<string> {
  return insertMessage(db, {
    ...meta,
    audience: "webhook",
    id: crypto.randomUUID(),
    channel: "webhook",
    recipient: delivery.url,
    subject: delivery.eventName,
    payload: delivery.body,
    messageKey: delivery.deliveryId,
    webhookId: delivery.webhookId,
    at,
  });
}
