import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import type { Currency, OrderLineRow, OrderRow } from "#db/schema";
import type { Config } from "~/lib/config.server";
import { type Mailer, sendLocalizedEmail } from "~/lib/mail.server";
import { formatMoney, priceIn } from "~/lib/money";
import { shippingFor } from "~/lib/shipping";
import type { Language } from "~/locales";
import type { CheckoutInput } from "~/schemas/checkout";

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
 * zero, whatever arrives at once); the order and its lines with snapshotted names, colour and
 * unit price; the cart emptied. Anything that fails leaves nothing behind.
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
      .leftJoin("product_images", (join) =>
        join.onRef("product_images.product_id", "=", "products.id").on("product_images.sort_order", "=", 0),
      )
      .select([
        "cart_lines.product_id",
        "cart_lines.color",
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
          color: line.color,
          count: left?.stock ?? 0,
        });
      }
    }

    const priced = lines.map((line) => {
      const unit = priceIn(line, input.currency);
      return { ...line, unit, total: unit * line.quantity };
    });
    const subtotal = priced.reduce((sum, line) => sum + line.total, 0);
    const shipping = shippingFor(subtotal);
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

export async function listOrdersForUser(db: DB, userId: string) {
  return db
    .selectFrom("orders")
    .leftJoin("order_lines", "order_lines.order_id", "orders.id")
    .select((eb) => [
      "orders.id",
      "orders.order_number",
      "orders.status",
      "orders.currency",
      "orders.total_cents",
      "orders.created_at",
      eb.fn.coalesce(eb.fn.sum<number>("order_lines.quantity"), eb.lit(0)).as("items"),
    ])
    .where("orders.user_id", "=", userId)
    .groupBy("orders.id")
    .orderBy("orders.created_at", "desc")
    .execute();
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

/** The primary bank account customers pay into (the first one when none is marked). */
export async function findPaymentAccount(db: DB) {
  return db.selectFrom("bank_accounts").selectAll().orderBy("is_primary", "desc").orderBy("id").executeTakeFirst();
}

/** 'Order received' e-mail in the customer's language, with the bank details and what happens next. */
export async function sendOrderReceivedEmail(
  db: DB,
  mailer: Mailer,
  config: Pick<Config, "publicUrl">,
  order: OrderRow,
): Promise<void> {
  const language: Language = order.locale === "zh" ? "zh" : "en";
  const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).orderBy("id").execute();
  const account = await findPaymentAccount(db);
  await sendLocalizedEmail(mailer, order.email, language, (t) => ({
    subject: t("orderEmail.receivedSubject", { number: order.order_number }),
    heading: t("orderEmail.receivedHeading", { name: order.first_name }),
    paragraphs: [
      t("orderEmail.receivedText", { number: order.order_number }),
      ...lines.map(
        (line) =>
          `${language === "zh" ? line.name_zh : line.name_en}${line.color !== "Default" ? ` (${line.color})` : ""} × ${line.quantity}: ${formatMoney(line.line_total_cents, order.currency)}`,
      ),
      `${t("cart.subtotal")}: ${formatMoney(order.subtotal_cents, order.currency)} · ${t("cart.shipping")}: ${
        order.shipping_cents === 0 ? t("cart.free") : formatMoney(order.shipping_cents, order.currency)
      } · ${t("cart.orderTotal")}: ${formatMoney(order.total_cents, order.currency)}`,
      ...(account
        ? [
            t("orderEmail.bankDetails", {
              bank: account.bank_name,
              holder: account.account_holder,
              account: account.account_number,
              fps: account.fps_id ?? "-",
            }),
          ]
        : []),
      t("success.step1"),
      t("success.step2"),
      t("success.step3"),
    ],
    action: { label: t("orderEmail.viewOrder"), url: `${config.publicUrl}/account/orders/${order.id}` },
  }));
}
