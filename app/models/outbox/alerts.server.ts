import type { TFunction } from "i18next";
import type { DB } from "#db/connect.server";
import type { OrderRow } from "#db/schema";
import { formatDate } from "~/lib/dates";
import { type EmailContent, renderLocalizedEmail } from "~/lib/mail.server";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import type { Language } from "~/locales";
import { ALERT_EVENTS, type AlertEvent } from "~/schemas/shop";
import { orderLineText } from "../orders/emails.server";
import { alertAddresses, loadShop, type ShopAlertSettings } from "../settings/shop.server";
import type { ShopEvent } from "./events.server";
import { queueEmail } from "./queue.server";

/*
 * The shop's own alerts (issue 26): when something needs the owner — a new order, a receipt to
 * review, an order that expired unpaid, a deadline an admin extended, a message that could not be
 * sent for 24 hours — one e-mail to each notification address of Settings → Shop details, for
 * the events chosen there, in the admin language chosen there. Queued in the event's transaction
 * (recordShopEvent), so an alert exists exactly when its event does.
 */

/** An alert's words, and the order it belongs to (shown with the order's messages). */
interface Alert {
  orderId: string | null;
  build: (t: TFunction) => EmailContent;
}

const ALERTED = new Set<string>(ALERT_EVENTS);

/**
 * Queues, in `trx`, one e-mail per notification address for `event` when the owner chose it.
 * An order placed with its receipt is alerted when either "new order" or "receipt uploaded" is
 * chosen (one e-mail: the receipt is part of the order's alert), so an owner who follows only
 * receipts hears of every one of them.
 */
export async function queueShopAlerts(trx: DB, event: ShopEvent): Promise<void> {
  if (!ALERTED.has(event.type)) return;
  const shop = await loadShop(trx);
  const settings = shop.alerts;
  const alert =
    event.type === "message.failed"
      ? settings.events["message.failed"]
        ? await failedMessageAlert(trx, event)
        : null
      : await orderAlert(trx, event, settings);
  if (!alert) return;
  const language: Language = settings.language;
  for (const address of alertAddresses(shop)) {
    const message = await renderLocalizedEmail(shop, address, language, (t) => alert.build(t));
    await queueEmail(
      trx,
      message,
      { event: `alert.${event.type}`, audience: "shop", language, orderId: alert.orderId },
      event.at,
    );
  }
}

/** "HK$1,234.00 HKD": the amount with its currency named, whatever the symbol. */
function amountText(order: Pick<OrderRow, "total_cents" | "currency">): string {
  return `${formatMoney(order.total_cents, order.currency)} ${order.currency}`;
}

/** The alert of an order's event, or null when the owner did not choose it (or the order is gone). */
async function orderAlert(trx: DB, event: ShopEvent, settings: ShopAlertSettings): Promise<Alert | null> {
  if (!event.orderId) return null;
  const order = await trx.selectFrom("orders").selectAll().where("id", "=", event.orderId).executeTakeFirst();
  if (!order) return null;
  const chosen =
    settings.events[event.type as AlertEvent] ||
    (event.type === "order.placed" && order.receipt_path !== null && settings.events["order.receipt_uploaded"]);
  if (!chosen) return null;
  const language = settings.language;
  const lines =
    event.type === "order.placed"
      ? await trx.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).orderBy("id").execute()
      : [];
  const params = {
    number: order.order_number,
    amount: amountText(order),
    deadline: order.payment_due_at ? formatDate(order.payment_due_at, language, "dateTime") : "",
  };
  // The words of this event: "shopAlert.<part>.subject", ".heading" and, but for a new order, ".text".
  const told = {
    "order.placed": null,
    "order.receipt_uploaded": event.replaced ? "receiptReplaced" : "receiptUploaded",
    "order.expired": "orderExpired",
    "order.deadline_extended": "deadlineExtended",
  } as const;
  const textPart = told[event.type as keyof typeof told];
  const part = textPart ?? "orderPlaced";
  return {
    orderId: order.id,
    build: (t) => {
      const about = [
        t("shopAlert.customer", {
          customer: formatPersonName(order.first_name, order.last_name),
          email: order.email,
        }),
        t("shopAlert.amount", params),
      ];
      const placed = () => [
        ...about,
        ...lines.map((line) => orderLineText(line, order.currency, language)),
        order.receipt_path ? t("shopAlert.orderPlaced.withReceipt") : t("shopAlert.orderPlaced.payLater"),
        ...(order.receipt_path || !order.payment_due_at ? [] : [t("shopAlert.deadline", params)]),
      ];
      return {
        subject: t(`shopAlert.${part}.subject`, params),
        heading: t(`shopAlert.${part}.heading`, params),
        paragraphs: textPart ? [t(`shopAlert.${textPart}.text`, params), ...about] : placed(),
        action: { label: t("shopAlert.openOrder"), url: `${event.publicUrl}/admin/orders/${order.id}` },
      };
    },
  };
}

/** The alert of a message that failed for good: which one, to whom, why, and where to send it again. */
async function failedMessageAlert(trx: DB, event: ShopEvent): Promise<Alert | null> {
  if (!event.messageId) return null;
  const message = await trx
    .selectFrom("outbox_messages")
    .leftJoin("orders", "orders.id", "outbox_messages.order_id")
    .select([
      "outbox_messages.id",
      "outbox_messages.subject",
      "outbox_messages.recipient",
      "outbox_messages.attempts",
      "outbox_messages.last_error",
      "outbox_messages.order_id",
      "orders.order_number",
    ])
    .where("outbox_messages.id", "=", event.messageId)
    .executeTakeFirst();
  if (!message) return null;
  return {
    orderId: message.order_id,
    build: (t) => ({
      subject: t("shopAlert.messageFailed.subject", { subject: message.subject }),
      heading: t("shopAlert.messageFailed.heading"),
      paragraphs: [
        t("shopAlert.messageFailed.text"),
        t("shopAlert.messageFailed.subjectLine", { subject: message.subject }),
        t("shopAlert.messageFailed.recipient", { recipient: message.recipient }),
        t("shopAlert.messageFailed.attempts", { attempts: message.attempts }),
        ...(message.last_error ? [t("shopAlert.messageFailed.lastError", { error: message.last_error })] : []),
        ...(message.order_id && message.order_number
          ? [
              t("shopAlert.messageFailed.order", {
                number: message.order_number,
                url: `${event.publicUrl}/admin/orders/${message.order_id}`,
              }),
            ]
          : []),
      ],
      action: { label: t("shopAlert.messageFailed.open"), url: `${event.publicUrl}/admin/messages/${message.id}` },
    }),
  };
}
