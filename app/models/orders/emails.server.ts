import type { TFunction } from "i18next";
import type { DB } from "#db/connect.server";
import type { Currency, OrderLineRow, OrderRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { formatDate } from "~/lib/dates";
import { localized, variantName } from "~/lib/localize";
import { renderLocalizedEmail } from "~/lib/mail.server";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import { queueEmail } from "../outbox/queue.server";
import { loadPaymentInstructions, type PaymentInstructions } from "../payment-accounts.server";
import { loadShop } from "../settings/shop.server";

/*
 * The e-mails an order sends its customer, in the language they ordered in: received, paid,
 * shipped, cancelled, receipt rejected, the payment reminder and the cancellation for want of
 * payment. Each is rendered and put into the outbox in the transaction of the event that causes
 * it (docs/decisions/044): the caller passes its transaction as `trx`.
 */

/** What an order's e-mails need of the configuration: absolute links, and whether the demo account may show. */
export type OrderMailConfig = Pick<Config, "publicUrl"> & { demoMode?: boolean };

/** The language an order's e-mails are written in: the one the customer ordered in. */
export function orderLanguage(order: Pick<OrderRow, "locale">): Language {
  return order.locale === "zh" ? "zh" : "en";
}

/** One line of an order as the e-mails list it: "Name (colour) × 2: HK$160.00". */
export function orderLineText(
  line: Pick<
    OrderLineRow,
    "name_en" | "name_zh" | "color" | "color_zh" | "option_value" | "option_value_zh" | "quantity" | "line_total_cents"
  >,
  currency: Currency,
  language: Language,
): string {
  const variant = variantName(line, language);
  const colour = variant ? ` (${variant})` : "";
  return `${localized(line, "name", language)}${colour} × ${line.quantity}: ${formatMoney(line.line_total_cents, currency)}`;
}

/** " · Discount (CODE): -HK$25.00" for an order with a code (docs/decisions/048), else "". */
function discountText(t: TFunction, order: Pick<OrderRow, "discount_code" | "discount_cents" | "currency">): string {
  if (!order.discount_code) return "";
  return ` · ${t("discounts.line", { code: order.discount_code })}: ${formatMoney(-order.discount_cents, order.currency)}`;
}

/**
 * The order's amounts as one paragraph, the same in every order e-mail that lists them:
 * "Subtotal: HK$160.00 · Discount (CODE): -HK$25.00 · Shipping: Free · Total: HK$135.00". The
 * subtotal is before the discount (the order stores it after, db/schema.ts).
 */
export function amountsText(
  t: TFunction,
  order: Pick<
    OrderRow,
    "subtotal_cents" | "discount_code" | "discount_cents" | "shipping_cents" | "total_cents" | "currency"
  >,
): string {
  const shipping = order.shipping_cents === 0 ? t("cart.free") : formatMoney(order.shipping_cents, order.currency);
  return `${t("cart.subtotal")}: ${formatMoney(order.subtotal_cents + order.discount_cents, order.currency)}${discountText(
    t,
    order,
  )} · ${t("cart.shipping")}: ${shipping} · ${t("cart.orderTotal")}: ${formatMoney(order.total_cents, order.currency)}`;
}

function orderUrl(config: Pick<Config, "publicUrl">, order: Pick<OrderRow, "id">): string {
  return `${config.publicUrl}/account/orders/${order.id}`;
}

/**
 * 'Order received', queued in the order's transaction: what they ordered, the transfer details
 * for the order's currency (FPS for HKD, international for GBP/EUR/USD; the demo account only in
 * demo mode, marked), the deadline, and what happens next. Nothing is confirmed yet: the shop
 * checks the transfer and writes again when the payment is confirmed.
 */
export async function queueOrderReceivedEmail(trx: DB, config: OrderMailConfig, order: OrderRow): Promise<void> {
  const language = orderLanguage(order);
  const lines = await trx
    .selectFrom("order_lines")
    .selectAll()
    .where("order_id", "=", order.id)
    .orderBy("id")
    .execute();
  const shop = await loadShop(trx);
  // Without `demoMode` the demo account is never shown (a live shop).
  const instructions = await loadPaymentInstructions(trx, order.currency, {
    demoMode: config.demoMode ?? false,
    supportEmail: shop.supportEmail,
  });
  const message = await renderLocalizedEmail(shop, order.email, language, (t) => ({
    subject: t("orderEmail.receivedSubject", { number: order.order_number }),
    heading: t("orderEmail.receivedHeading", { name: order.first_name }),
    paragraphs: [
      t(order.receipt_path ? "orderEmail.receivedText" : "orderEmail.receivedTextUnpaid", {
        number: order.order_number,
      }),
      ...lines.map((line) => orderLineText(line, order.currency, language)),
      amountsText(t, order),
      ...transferParagraphs(t, instructions, order.currency, order.order_number),
      ...(order.payment_due_at
        ? [
            t(order.receipt_path ? "orderEmail.deadlineChecking" : "orderEmail.deadlineUnpaid", {
              deadline: formatDate(order.payment_due_at, language, "dateTime"),
            }),
          ]
        : []),
      t("orderEmail.receivedNext"),
    ],
    action: {
      label: t(order.receipt_path ? "orderEmail.viewOrder" : "orderEmail.payAndUpload"),
      url: orderUrl(config, order),
    },
  }));
  await queueEmail(
    trx,
    message,
    { event: "order.placed", audience: "customer", language, orderId: order.id },
    new Date(order.created_at),
  );
}

/**
 * The e-mail's transfer details, one "label: value" a paragraph under a sentence saying what kind
 * of transfer, ending with the reference (the order number) the transfer should carry.
 */
function transferParagraphs(
  t: TFunction,
  instructions: PaymentInstructions,
  currency: Currency,
  reference: string,
): string[] {
  const rows = (pairs: [string, string | null][]) =>
    pairs.flatMap(([label, value]) => (value ? [`${label}: ${value}`] : []));
  const demo = (on: boolean) => (on ? [t("orderEmail.demoAccount")] : []);
  // Whom and where to pay, the same for both kinds of transfer.
  const account = (to: { holder: string; bank: string; accountNumber: string }): [string, string][] => [
    [t("payment.payee"), to.holder],
    [t("payment.bank"), to.bank],
    [t("payment.accountNumber"), to.accountNumber],
  ];
  switch (instructions.kind) {
    case "fps":
      return [
        t(instructions.fpsId ? "orderEmail.transferFps" : "orderEmail.transferLocal"),
        ...rows([
          [t("payment.fpsId"), instructions.fpsId],
          ...account(instructions),
          [t("payment.reference"), reference],
        ]),
        ...demo(instructions.demo),
      ];
    case "international":
      return [
        t("orderEmail.transferInternational", { currency }),
        ...rows([
          ...account(instructions),
          [t("payment.swift"), instructions.swift],
          [t("payment.bankAddress"), instructions.bankAddress],
          [t("payment.routingNumber"), instructions.routingNumber],
          [t("payment.reference"), reference],
        ]),
        ...demo(instructions.demo),
      ];
    case "contact":
      return [t("orderEmail.transferContact", { currency, email: instructions.supportEmail })];
    case "closed":
      // A live shop never sends shoppers to the demo account, not even in an e-mail.
      return [];
  }
}

/**
 * The status changes the customer is told of by e-mail, with the words of each (delivered is not
 * mailed), and whether it lists the order's amounts (with its discount line, docs/decisions/048).
 */
const STATUS_EMAILS = {
  markPaid: { key: "paid", event: "order.paid", amounts: true },
  markShipped: { key: "shipped", event: "order.shipped", amounts: true },
  cancel: { key: "cancelled", event: "order.cancelled", amounts: true },
  rejectReceipt: { key: "receiptRejected", event: "order.receipt_rejected", amounts: false },
} as const;

export type MailedTransition = keyof typeof STATUS_EMAILS;

/** Whether the customer is e-mailed when an admin makes this change. */
export function mailsCustomer(transition: string): transition is MailedTransition {
  return Object.hasOwn(STATUS_EMAILS, transition);
}

/**
 * Tells the customer what an admin changed, queued in the change's transaction: paid, shipped
 * (with the carrier and tracking number), cancelled, or a rejected receipt with the reason and a link to
 * upload a new one.
 */
export async function queueOrderStatusEmail(
  trx: DB,
  config: Pick<Config, "publicUrl">,
  order: OrderRow,
  transition: MailedTransition,
  at: Date,
): Promise<void> {
  const language = orderLanguage(order);
  const { key, event, amounts } = STATUS_EMAILS[transition];
  const params = {
    number: order.order_number,
    name: order.first_name,
    total: formatMoney(order.total_cents, order.currency),
    tracking: order.tracking_number ?? "",
    carrier: order.carrier ?? "",
    reason: order.receipt_rejected_reason ?? "",
  };
  const message = await renderLocalizedEmail(await loadShop(trx), order.email, language, (t) => ({
    subject: t(`orderEmail.${key}Subject`, params),
    heading: t("orderEmail.statusHeading", params),
    paragraphs: [
      t(`orderEmail.${key}Text`, params),
      ...(amounts ? [amountsText(t, order)] : []),
      ...(transition === "markShipped" && order.carrier ? [t("orderEmail.carrierText", params)] : []),
      ...(transition === "markShipped" && order.tracking_number ? [t("orderEmail.trackingText", params)] : []),
      ...(transition === "rejectReceipt" ? [t("orderEmail.reasonText", params)] : []),
    ],
    action: {
      label: t(transition === "rejectReceipt" ? "orderEmail.uploadReceipt" : "orderEmail.viewOrder"),
      url: orderUrl(config, order),
    },
  }));
  await queueEmail(trx, message, { event, audience: "customer", language, orderId: order.id }, at);
}

/**
 * The payment reminder or the cancellation for want of payment, queued in the transaction that
 * claims the reminder or expires the order, with the deadline in Hong Kong time.
 */
export async function queueDeadlineEmail(
  trx: DB,
  config: Pick<Config, "publicUrl">,
  order: OrderRow,
  kind: "reminder" | "expired",
  at: Date,
): Promise<void> {
  const language = orderLanguage(order);
  const params = {
    number: order.order_number,
    name: order.first_name,
    total: formatMoney(order.total_cents, order.currency),
    deadline: order.payment_due_at ? formatDate(order.payment_due_at, language, "dateTime") : "",
  };
  const message = await renderLocalizedEmail(await loadShop(trx), order.email, language, (t) => ({
    subject: t(`orderEmail.${kind}Subject`, params),
    heading: t("orderEmail.statusHeading", params),
    paragraphs: [t(`orderEmail.${kind}Text`, params), amountsText(t, order), t(`orderEmail.${kind}Next`, params)],
    action: {
      label: t(kind === "reminder" ? "orderEmail.payAndUpload" : "orderEmail.viewOrder"),
      url: orderUrl(config, order),
    },
  }));
  await queueEmail(
    trx,
    message,
    {
      event: kind === "reminder" ? "order.reminder" : "order.expired",
      audience: "customer",
      language,
      orderId: order.id,
    },
    at,
  );
}
