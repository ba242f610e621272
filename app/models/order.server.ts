import crypto from "node:crypto";
import type { TFunction } from "i18next";
import { type DB, now } from "#db/connect.server";
import type { Currency, OrderLineRow, OrderRow, OrderStatus } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { colorName } from "~/lib/localize";
import { type Mailer, sendLocalizedEmail } from "~/lib/mail.server";
import { formatMoney, priceIn } from "~/lib/money";
import { shippingFor } from "~/lib/shipping";
import type { Language } from "~/locales";
import type { CheckoutInput } from "~/schemas/checkout";
import { recordAudit } from "./audit.server";
import { loadPaymentInstructions, type PaymentInstructions } from "./payment-accounts.server";
import { loadShop } from "./settings/shop.server";

/** A refusal the shopper sees: a translation key with its parameters. */
export class OrderError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
    this.name = "OrderError";
  }
}

/** Unique under load: `ORD-` + timestamp + a random suffix. */
export function newOrderNumber(at = Date.now()): string {
  return `ORD-${at}-${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
}

export interface PlaceOrderInput {
  userId: string;
  cartId: string;
  currency: Currency;
  locale: Language;
  customer: CheckoutInput;
  /** Private storage key of the receipt, already written (re-encoded) before the order row. */
  receiptPath: string;
  /** The payment form's one-time key: sending the same form twice makes one order. */
  submissionKey: string;
}

/**
 * Places an order in one transaction: prices, shipping and total recomputed from the database
 * in the order's currency; each colour's stock taken with a conditional update (never below
 * zero, whatever arrives at once); the order and its lines with snapshotted names, colour (in
 * English and Chinese) and unit price; the cart emptied. A product hidden from shoppers (its
 * category inactive) is refused. Anything that fails leaves nothing behind.
 */
export async function placeOrder(db: DB, input: PlaceOrderInput): Promise<{ order: OrderRow; duplicate: boolean }> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("orders")
      .selectAll()
      .where("submission_key", "=", input.submissionKey)
      .where("user_id", "=", input.userId)
      .executeTakeFirst();
    if (existing) return { order: existing, duplicate: true };

    const lines = await trx
      .selectFrom("cart_lines")
      .innerJoin("products", "products.id", "cart_lines.product_id")
      .leftJoin("categories", "categories.id", "products.category_id")
      .leftJoin("product_variants", (join) =>
        join
          .onRef("product_variants.product_id", "=", "cart_lines.product_id")
          .onRef("product_variants.color", "=", "cart_lines.color"),
      )
      .leftJoin("product_images", (join) =>
        join.onRef("product_images.product_id", "=", "products.id").on("product_images.sort_order", "=", 0),
      )
      .select([
        "cart_lines.product_id",
        "cart_lines.color",
        "product_variants.color_zh",
        "categories.is_active as category_is_active",
        "cart_lines.quantity",
        "products.name_en",
        "products.name_zh",
        "products.price_hkd_cents",
        "products.price_gbp_cents",
        "products.price_eur_cents",
        "products.price_usd_cents",
        "product_images.path as image_path",
      ])
      .where("cart_lines.cart_id", "=", input.cartId)
      .orderBy("cart_lines.id")
      .execute();
    if (lines.length === 0) throw new OrderError("checkout.errors.emptyCart");
    // Hidden from shoppers since it went into the cart (its category is inactive): not sold.
    const hidden = lines.find((line) => line.category_is_active === 0);
    if (hidden) {
      throw new OrderError("checkout.errors.unavailable", {
        name: input.locale === "zh" ? hidden.name_zh : hidden.name_en,
      });
    }

    for (const line of lines) {
      const taken = await trx
        .updateTable("product_variants")
        .set((eb) => ({ stock: eb("stock", "-", line.quantity) }))
        .where("product_id", "=", line.product_id)
        .where("color", "=", line.color)
        .where("stock", ">=", line.quantity)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) {
        const left = await trx
          .selectFrom("product_variants")
          .select("stock")
          .where("product_id", "=", line.product_id)
          .where("color", "=", line.color)
          .executeTakeFirst();
        throw new OrderError("checkout.errors.outOfStock", {
          name: input.locale === "zh" ? line.name_zh : line.name_en,
          color: colorName(line, input.locale),
          count: left?.stock ?? 0,
        });
      }
    }

    const priced = lines.map((line) => {
      const unit = priceIn(line, input.currency);
      return { ...line, unit, total: unit * line.quantity };
    });
    const subtotal = priced.reduce((sum, line) => sum + line.total, 0);
    // The shop's shipping rule as it stands in this transaction, in the order's currency.
    const shop = await loadShop(trx);
    const shipping = shippingFor(subtotal, shop.shipping[input.currency]);
    const timestamp = now();
    const { customer } = input;
    const order = {
      id: crypto.randomUUID(),
      order_number: newOrderNumber(),
      user_id: input.userId,
      status: "pending_payment" as const,
      currency: input.currency,
      locale: input.locale,
      subtotal_cents: subtotal,
      shipping_cents: shipping,
      total_cents: subtotal + shipping,
      first_name: customer.firstName,
      last_name: customer.lastName,
      email: customer.email.toLowerCase(),
      phone: customer.phone ?? null,
      address: customer.address,
      city: customer.city,
      postal_code: customer.postalCode ?? null,
      country: customer.country,
      notes: customer.notes ?? null,
      receipt_path: input.receiptPath,
      receipt_uploaded_at: timestamp,
      submission_key: input.submissionKey,
      created_at: timestamp,
      updated_at: timestamp,
    };
    await trx.insertInto("orders").values(order).execute();
    await trx
      .insertInto("order_lines")
      .values(
        priced.map((line) => ({
          order_id: order.id,
          product_id: line.product_id,
          name_en: line.name_en,
          name_zh: line.name_zh,
          color: line.color,
          color_zh: line.color_zh ?? null,
          image_path: line.image_path,
          unit_price_cents: line.unit,
          quantity: line.quantity,
          line_total_cents: line.total,
        })),
      )
      .execute();
    await trx.deleteFrom("cart_lines").where("cart_id", "=", input.cartId).execute();
    await trx
      .insertInto("audit_log")
      .values({
        actor_user_id: input.userId,
        action: "order.placed",
        entity_type: "order",
        entity_id: order.id,
        details: JSON.stringify({
          order_number: order.order_number,
          total_cents: order.total_cents,
          currency: order.currency,
        }),
        created_at: timestamp,
      })
      .execute();
    const row = await trx.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    return { order: row, duplicate: false };
  });
}

/** A customer's orders, newest first, each with the status the customer sees (customerStatus). */
export async function listOrdersForUser(db: DB, userId: string) {
  const rows = await db
    .selectFrom("orders")
    .leftJoin("order_lines", "order_lines.order_id", "orders.id")
    .select((eb) => [
      "orders.id",
      "orders.order_number",
      "orders.status",
      "orders.currency",
      "orders.total_cents",
      "orders.created_at",
      "orders.receipt_path",
      "orders.receipt_rejected_reason",
      eb.fn.coalesce(eb.fn.sum<number>("order_lines.quantity"), eb.lit(0)).as("items"),
    ])
    .where("orders.user_id", "=", userId)
    .groupBy("orders.id")
    .orderBy("orders.created_at", "desc")
    .execute();
  // The receipt's storage key and the reason stay on the server: the list shows the status.
  return rows.map(({ receipt_path, receipt_rejected_reason, ...row }) => ({
    ...row,
    customer_status: customerStatus({ status: row.status, receipt_path, receipt_rejected_reason }),
  }));
}

/** What a customer is told about their order: its status, or where their receipt stands. */
export type CustomerOrderStatus = OrderStatus | "receipt_checking" | "receipt_rejected";

/**
 * The status a customer sees. While payment is pending it says where their receipt stands:
 * received and being checked, or not accepted (they upload a new one). Otherwise the status.
 */
export function customerStatus(
  order: Pick<OrderRow, "status" | "receipt_path" | "receipt_rejected_reason">,
): CustomerOrderStatus {
  if (order.status !== "pending_payment") return order.status;
  if (order.receipt_rejected_reason !== null) return "receipt_rejected";
  if (order.receipt_path !== null) return "receipt_checking";
  return order.status;
}

export type OrderHistoryEntry =
  | { kind: "placed" | "paid" | "shipped" | "delivered" | "cancelled" | "receiptReplaced"; at: string }
  | { kind: "receiptRejected"; at: string; reason: string };

/**
 * The order's history as its customer sees it, oldest first: placed, each receipt the shop did
 * not accept with the reason given, each new receipt, then paid, shipped, delivered or
 * cancelled. Rejections and new receipts come from the audit log, where the order desk and
 * replaceReceipt record them.
 */
export async function listOrderHistory(db: DB, order: OrderRow): Promise<OrderHistoryEntry[]> {
  const audited = await db
    .selectFrom("audit_log")
    .select(["action", "details", "created_at"])
    .where("entity_type", "=", "order")
    .where("entity_id", "=", order.id)
    .where("action", "in", ["order.rejectReceipt", "order.receiptReplaced"])
    .orderBy("id")
    .execute();
  const entries: OrderHistoryEntry[] = [{ kind: "placed", at: order.created_at }];
  for (const row of audited) {
    if (row.action === "order.receiptReplaced") {
      entries.push({ kind: "receiptReplaced", at: row.created_at });
      continue;
    }
    let reason = "";
    try {
      const details = JSON.parse(row.details ?? "null") as { after?: { reason?: unknown } } | null;
      if (typeof details?.after?.reason === "string") reason = details.after.reason;
    } catch {
      // An unreadable entry still shows that the receipt was not accepted.
    }
    entries.push({ kind: "receiptRejected", at: row.created_at, reason });
  }
  const steps = [
    ["paid", order.paid_at],
    ["shipped", order.shipped_at],
    ["delivered", order.delivered_at],
    ["cancelled", order.cancelled_at],
  ] as const;
  for (const [kind, at] of steps) if (at) entries.push({ kind, at });
  // Stable: entries of the same moment keep the order above.
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * A new receipt for an order whose receipt the shop did not accept. Only the order's customer,
 * only while the order is still pending payment with its receipt rejected (compare-and-set, so
 * two uploads at once cannot both win); the rejection is cleared, and the new receipt goes into
 * the order's history (audit log). Returns the storage key of the receipt it replaced (for the
 * caller to delete), or null when the order is not waiting for a new receipt.
 */
export async function replaceReceipt(
  db: DB,
  input: { orderId: string; userId: string; receiptPath: string },
): Promise<{ previous: string | null } | null> {
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom("orders")
      .select(["receipt_path", "receipt_rejected_reason"])
      .where("id", "=", input.orderId)
      .where("user_id", "=", input.userId)
      .where("status", "=", "pending_payment")
      .where("receipt_rejected_reason", "is not", null)
      .executeTakeFirst();
    if (!order) return null;
    const timestamp = now();
    const updated = await trx
      .updateTable("orders")
      .set({
        receipt_path: input.receiptPath,
        receipt_uploaded_at: timestamp,
        receipt_rejected_reason: null,
        updated_at: timestamp,
      })
      .where("id", "=", input.orderId)
      .where("status", "=", "pending_payment")
      .where("receipt_rejected_reason", "is not", null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    await recordAudit(trx, {
      actorUserId: input.userId,
      action: "order.receiptReplaced",
      entityType: "order",
      entityId: input.orderId,
      before: { receipt_rejected_reason: order.receipt_rejected_reason },
      after: { receipt_uploaded_at: timestamp },
    });
    return { previous: order.receipt_path };
  });
}

/**
 * The name, phone and address of a customer's most recent order (any status: it is what they
 * typed last), to fill in their next checkout; undefined before their first order.
 */
export async function findLastOrderContact(db: DB, userId: string) {
  return db
    .selectFrom("orders")
    .select(["first_name", "last_name", "phone", "address", "city", "postal_code", "country"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** An order with its lines, only for its owner (or any order when `userId` is null: admins). */
export async function findOrder(
  db: DB,
  id: string,
  userId: string | null,
): Promise<{ order: OrderRow; lines: OrderLineRow[] } | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  let query = db.selectFrom("orders").selectAll().where("id", "=", id);
  if (userId !== null) query = query.where("user_id", "=", userId);
  const order = await query.executeTakeFirst();
  if (!order) return null;
  const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", id).orderBy("id").execute();
  return { order, lines };
}

export async function findOrderByNumber(db: DB, orderNumber: string, userId: string): Promise<OrderRow | undefined> {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("order_number", "=", orderNumber)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** Where shoppers pay: see payment-account.server.ts (kept importable from here for the order's callers). */
export { findPaymentAccount } from "./payment-accounts.server";

/**
 * 'Order received' e-mail in the customer's language: what they ordered, the transfer details
 * for the order's currency (FPS for HKD, international for GBP/EUR/USD; the demo account only in
 * demo mode, marked), and what happens next. Nothing is confirmed yet: the shop checks the
 * transfer and writes again when the payment is confirmed.
 */
export async function sendOrderReceivedEmail(
  db: DB,
  mailer: Mailer,
  /** Without `demoMode` the demo account is never shown (a live shop). */
  config: Pick<Config, "publicUrl"> & { demoMode?: boolean },
  order: OrderRow,
): Promise<void> {
  const language: Language = order.locale === "zh" ? "zh" : "en";
  const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).orderBy("id").execute();
  const shop = await loadShop(db);
  const instructions = await loadPaymentInstructions(db, order.currency, {
    demoMode: config.demoMode ?? false,
    supportEmail: shop.supportEmail,
  });
  await sendLocalizedEmail(mailer, shop, order.email, language, (t) => ({
    subject: t("orderEmail.receivedSubject", { number: order.order_number }),
    heading: t("orderEmail.receivedHeading", { name: order.first_name }),
    paragraphs: [
      t("orderEmail.receivedText", { number: order.order_number }),
      ...lines.map(
        (line) =>
          `${language === "zh" ? line.name_zh : line.name_en}${line.color !== "Default" ? ` (${colorName(line, language)})` : ""} × ${line.quantity}: ${formatMoney(line.line_total_cents, order.currency)}`,
      ),
      `${t("cart.subtotal")}: ${formatMoney(order.subtotal_cents, order.currency)} · ${t("cart.shipping")}: ${
        order.shipping_cents === 0 ? t("cart.free") : formatMoney(order.shipping_cents, order.currency)
      } · ${t("cart.orderTotal")}: ${formatMoney(order.total_cents, order.currency)}`,
      ...transferParagraphs(t, instructions, order.currency),
      t("orderEmail.receivedNext"),
    ],
    action: { label: t("orderEmail.viewOrder"), url: `${config.publicUrl}/account/orders/${order.id}` },
  }));
}

/** The e-mail's transfer details, one "label: value" a paragraph under a sentence saying what kind of transfer. */
function transferParagraphs(t: TFunction, instructions: PaymentInstructions, currency: Currency): string[] {
  const rows = (pairs: [string, string | null][]) =>
    pairs.flatMap(([label, value]) => (value ? [`${label}: ${value}`] : []));
  const demo = (on: boolean) => (on ? [t("orderEmail.demoAccount")] : []);
  switch (instructions.kind) {
    case "fps":
      return [
        t(instructions.fpsId ? "orderEmail.transferFps" : "orderEmail.transferLocal"),
        ...rows([
          [t("payment.fpsId"), instructions.fpsId],
          [t("payment.payee"), instructions.holder],
          [t("payment.bank"), instructions.bank],
          [t("payment.accountNumber"), instructions.accountNumber],
        ]),
        ...demo(instructions.demo),
      ];
    case "international":
      return [
        t("orderEmail.transferInternational", { currency }),
        ...rows([
          [t("payment.payee"), instructions.holder],
          [t("payment.bank"), instructions.bank],
          [t("payment.accountNumber"), instructions.accountNumber],
          [t("payment.swift"), instructions.swift],
          [t("payment.bankAddress"), instructions.bankAddress],
          [t("payment.routingNumber"), instructions.routingNumber],
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
