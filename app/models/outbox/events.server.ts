import type { DB } from "#db/connect.server";
import { queueShopAlerts } from "./alerts.server";
import { queueWebhookEvents } from "./webhooks.server";

/*
 * What happened in the shop that someone outside the request should hear of: the shop's own
 * notification addresses (alerts.server.ts) and the owner's webhooks (webhooks.server.ts). Called
 * in the transaction of the event, so the messages exist exactly when the event does.
 */

export type ShopEventType =
  | "order.placed"
  | "order.receipt_uploaded"
  | "order.receipt_rejected"
  | "order.paid"
  | "order.shipped"
  | "order.delivered"
  | "order.cancelled"
  | "order.expired"
  | "order.deadline_extended"
  | "order.refunded"
  | "message.failed";

export interface ShopEvent {
  type: ShopEventType;
  at: Date;
  /** PUBLIC_URL (config): the links in alerts and webhooks are absolute. */
  publicUrl: string;
  /** The order it is about (every order.* event; the failed message's order, if any). */
  orderId?: string | null;
  /** message.failed: the message that failed for good. */
  messageId?: string;
  /** order.receipt_uploaded: a receipt that replaced an earlier one. */
  replaced?: boolean;
  /** order.refunded: the refund just recorded (docs/decisions/057). */
  refund?: { id: number; amount_cents: number; currency: string; reason: string };
}

/** Queues, in `trx`, the alerts and webhook deliveries the event causes. */
export async function recordShopEvent(trx: DB, event: ShopEvent): Promise<void> {
  await queueShopAlerts(trx, event);
  await queueWebhookEvents(trx, event);
}
