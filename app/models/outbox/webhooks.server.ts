import crypto from "node:crypto";
import type { DB } from "#db/connect.server";
import type { ShopEvent } from "./events.server";
import { queueWebhookDelivery } from "./queue.server";

/*
 * Webhook deliveries (Settings → Webhooks, docs/decisions/046). For an event, each active webhook
 * subscribed to it gets one delivery: an outbox message written in the event's transaction, whose
 * body is the JSON below, fixed when it is queued and POSTed as it is on every attempt (signed
 * anew each time: webhook-send.server.ts).
 *
 *   { "event": "order.paid", "id": "<delivery id>", "occurred_at": "2026-11-26T10:00:00.000Z",
 *     "order": { "number": "ORD-…", "status": "paid", "amount_cents": 123400, "currency": "HKD",
 *                "link": "https://shop.example/admin/orders/<id>" } }
 *
 * `id` is the delivery's own id, the same on every retry, so a receiver can drop a repeat.
 * message.failed carries `message` (id, channel, subject, recipient) and `order` (or null).
 * The test button sends `{ "event": "ping", "id", "occurred_at" }`.
 */

/** What a receiver is told of an order. */
interface OrderPart {
  number: string;
  status: string;
  amount_cents: number;
  /** What has been refunded of it so far (docs/decisions/057). */
  refunded_cents: number;
  currency: string;
  link: string;
}

async function orderPart(trx: DB, orderId: string | null | undefined, publicUrl: string): Promise<OrderPart | null> {
  if (!orderId) return null;
  const order = await trx
    .selectFrom("orders")
    .select(["id", "order_number", "status", "total_cents", "refunded_cents", "currency"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order) return null;
  return {
    number: order.order_number,
    status: order.status,
    amount_cents: order.total_cents,
    refunded_cents: order.refunded_cents,
    currency: order.currency,
    link: `${publicUrl}/admin/orders/${order.id}`,
  };
}

/** The active webhooks subscribed to `type` (a shop has a handful: they are filtered here). */
async function subscribers(trx: DB, type: string): Promise<{ id: string; url: string }[]> {
  const rows = await trx
    .selectFrom("webhooks")
    .select(["id", "url", "events"])
    .where("active", "=", 1)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.filter((row) => {
    try {
      const events: unknown = JSON.parse(row.events);
      return Array.isArray(events) && events.includes(type);
    } catch {
      return false;
    }
  });
}

/** What an event tells a receiver besides its name and time; null when there is nothing to tell. */
async function eventBody(
  trx: DB,
  event: ShopEvent,
): Promise<{ body: Record<string, unknown>; orderId: string | null; skipWebhook: string | null } | null> {
  if (event.type !== "message.failed") {
    const order = await orderPart(trx, event.orderId, event.publicUrl);
    if (!order) return null;
    // A refund's receiver is told which refund this was (its amount and reason), not only the total.
    const body = event.refund ? { order, refund: event.refund } : { order };
    return { body, orderId: event.orderId ?? null, skipWebhook: null };
  }
  if (!event.messageId) return null;
  const message = await trx
    .selectFrom("outbox_messages")
    .select(["id", "channel", "event", "subject", "recipient", "order_id", "webhook_id"])
    .where("id", "=", event.messageId)
    .executeTakeFirst();
  if (!message) return null;
  // A failed delivery of message.failed itself is told to no webhook: while receivers are down,
  // failures would otherwise feed each other every day.
  if (message.channel === "webhook" && message.event === "message.failed") return null;
  return {
    body: {
      message: {
        id: message.id,
        channel: message.channel,
        subject: message.subject,
        recipient: message.recipient,
      },
      order: await orderPart(trx, message.order_id, event.publicUrl),
    },
    orderId: message.order_id,
    // The webhook whose delivery failed is not told about it: it is the one not answering.
    skipWebhook: message.channel === "webhook" ? message.webhook_id : null,
  };
}

/**
 * Queues, in `trx`, one delivery of `event` for each active webhook subscribed to it. Called by
 * recordShopEvent in the event's transaction.
 */
export async function queueWebhookEvents(trx: DB, event: ShopEvent): Promise<void> {
  const hooks = await subscribers(trx, event.type);
  if (hooks.length === 0) return;
  const about = await eventBody(trx, event);
  if (!about) return;
  for (const hook of hooks) {
    if (hook.id === about.skipWebhook) continue;
    const deliveryId = crypto.randomUUID();
    const body = JSON.stringify({
      event: event.type,
      id: deliveryId,
      occurred_at: event.at.toISOString(),
      ...about.body,
    });
    await queueWebhookDelivery(
      trx,
      { webhookId: hook.id, url: hook.url, eventName: event.type, body, deliveryId },
      { event: event.type, language: "en", orderId: about.orderId },
      event.at,
    );
  }
}

/**
 * The test button: a `ping` delivery to one webhook (active or not), through the outbox like any
 * other, so its log shows what the receiver answered. Returns the delivery id.
 */
export async function queueWebhookPing(trx: DB, webhook: { id: string; url: string }, at: Date): Promise<string> {
  const deliveryId = crypto.randomUUID();
  const body = JSON.stringify({ event: "ping", id: deliveryId, occurred_at: at.toISOString() });
  await queueWebhookDelivery(
    trx,
    { webhookId: webhook.id, url: webhook.url, eventName: "ping", body, deliveryId },
    { event: "webhook.test", language: "en" },
    at,
  );
  return deliveryId;
}
