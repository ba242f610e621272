import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import { lockRows } from "#db/dialect";
import type { Currency, OrderRow } from "#db/schema";
import { DEFAULT_PAYMENT_WINDOW_HOURS } from "~/lib/config.server";
import { countryName, resolveCountry } from "~/lib/countries";
import { localized, variantName } from "~/lib/localize";
import { countOrderPlaced } from "~/lib/metrics.server";
import { priceNow } from "~/lib/money";
import { type Problem, UserError } from "~/lib/problem";
import { removeFilesQuietly, type Storage } from "~/lib/storage.server";
import type { Language } from "~/locales";
import type { CheckoutState } from "~/request/checkout.server";
import type { CheckoutInput } from "~/schemas/checkout";
import { cartLineRows } from "../cart.server";
import { recordDiscountUse, takeDiscountUse } from "../discounts/uses.server";
import { recordShopEvent } from "../outbox/events.server";
import { loadPaymentInstructions, takesOrders } from "../payment-accounts.server";
import { loadShop, paymentWindowHours } from "../settings/shop.server";
import { shippingQuote } from "../shipping/zones.server";
import { type AgeConfirmation, requireAgeConfirmation } from "./age.server";
import { type OrderMailConfig, queueOrderReceivedEmail } from "./emails.server";
import { paymentDeadlines } from "./payment-deadlines.server";
import { storeReceipt } from "./receipts.server";
import { requireShippable } from "./restrictions.server";
import { findOwnOrder } from "./shopper.server";

type CartLineRow = Awaited<ReturnType<typeof cartLineRows>>[number];

/** Unique under load: `ORD-` + timestamp + a random suffix. */
export function newOrderNumber(at = Date.now()): string {
  return `ORD-${at}-${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
}

const ORDER_NUMBER = /^ORD-\d{13}-[0-9A-F]{6}$/;

/**
 * The number the order of a checkout will have, chosen when the shopper sends their delivery
 * details, so that the payment page's FPS code (its bill number) and the transfer already carry
 * the order's reference (docs/decisions/041). A checkout sent again (the shopper went back to
 * change the address or the cart) keeps the number it had: a transfer made meanwhile still
 * names the order. `placeOrder` takes it, unless another order has it by then.
 */
export function checkoutOrderNumber(previous: string | null | undefined): string {
  return previous && ORDER_NUMBER.test(previous) ? previous : newOrderNumber();
}

/**
 * The reserved number when no order has it yet, else a new one. Two checkouts reserve the same
 * number only in the same millisecond with the same 24 random bits; the unique index on
 * `order_number` stays the last word.
 */
async function freeOrderNumber(trx: DB, reserved: string | undefined): Promise<string> {
  if (!reserved || !ORDER_NUMBER.test(reserved)) return newOrderNumber();
  const taken = await trx.selectFrom("orders").select("id").where("order_number", "=", reserved).executeTakeFirst();
  return taken ? newOrderNumber() : reserved;
}

export interface PlaceOrderInput {
  userId: string;
  cartId: string;
  currency: Currency;
  locale: Language;
  customer: CheckoutInput;
  /**
   * Private storage key of the receipt, already written (re-encoded) before the order row; null
   * when the shopper pays after placing the order (uploaded later from the order page).
   */
  receiptPath: string | null;
  /** The payment form's one-time key: sending the same form twice makes one order. */
  submissionKey: string;
  /** The number reserved at checkout (checkoutOrderNumber); a new one when missing. */
  orderNumber?: string;
  /** PAYMENT_WINDOW_HOURS: the window when the owner set none (Settings → Shop details); default 48. */
  defaultPaymentWindowHours?: number;
  /** The shopper's "I am 18 or older" at checkout (docs/decisions/049); needed when an item is 18+. */
  ageConfirmation?: AgeConfirmation | null;
  /** The moment of placement (a test's clock): prices in effect then; now by default. */
  at?: Date;
  /**
   * Last in the order's transaction, a new order only (not one found by its submission key): what
   * the caller writes with it (the shopper's session), so that both are one commit.
   */
  whenPlaced?: (trx: DB, order: OrderRow) => Promise<void>;
}

/** The order a payment form made, by the form's one-time key (the same form sent twice finds it). */
async function findSubmittedOrder(db: DB, userId: string, submissionKey: string) {
  if (!submissionKey) return undefined;
  return findOwnOrder(db, userId, "submission_key", submissionKey);
}

export interface PayForCheckoutInput {
  userId: string;
  /** The shopper's cart, null when they have none. */
  cartId: string | null;
  currency: Currency;
  locale: Language;
  /** The checkout the shopper filled in (session), null when there is none (any more). */
  checkout: CheckoutState | null;
  /** The payment form's one-time key, as sent. */
  submissionKey: string;
  receipt: File | undefined;
  /** "Place the order, pay later": no receipt needed now. A receipt sent along is still taken. */
  payLater: boolean;
  demoMode: boolean;
  supportEmail: string;
  defaultPaymentWindowHours: number;
  /** PUBLIC_URL: the links of the order's e-mail and of the shop's alert. */
  publicUrl: string;
  /** Passed on to placeOrder: written in a new order's transaction. */
  whenPlaced?: PlaceOrderInput["whenPlaced"];
}

/**
 * The payment form's rules, in order: the same form sent again (double click, refresh, back)
 * answers with the order it made, whatever else changed since; otherwise it must belong to the
 * shopper's current checkout; a live shop still on the demo account (or with none) takes no
 * order and stores nothing; the receipt is stored (storeReceipt's refusals) and the order placed
 * (placeOrder). A refused order leaves no receipt behind and is a 409 naming the reason.
 */
export async function payForCheckout(
  db: DB,
  storage: Storage,
  input: PayForCheckoutInput,
): Promise<{ order: OrderRow; duplicate: boolean }> {
  const earlier = await findSubmittedOrder(db, input.userId, input.submissionKey);
  if (earlier) return { order: earlier, duplicate: true };
  const { checkout } = input;
  if (!checkout || checkout.submissionKey !== input.submissionKey) {
    throw new UserError("payment.noOrderTitle", { detailKey: "payment.noOrderText" });
  }
  const instructions = await loadPaymentInstructions(db, input.currency, {
    demoMode: input.demoMode,
    supportEmail: input.supportEmail,
  });
  if (!takesOrders(instructions)) {
    throw new UserError("payment.closedText", { params: { email: input.supportEmail }, status: 409 });
  }
  const hasFile = input.receipt instanceof File && input.receipt.size > 0;
  const { cartId } = input;
  let receiptPath: string | null = null;
  if (!input.payLater || hasFile) {
    try {
      receiptPath = await storeReceipt(storage, input.receipt, input.userId, {
        // Checked when the receipt's turn to be re-encoded comes (50 shoppers at once queue
        // there): a cart placeOrder would refuse by then is refused the same way, before its
        // receipt costs any CPU. placeOrder checks again in its transaction, which decides.
        beforeEncode: cartId
          ? () => refuseUnplaceableCart(db, cartId, input.locale).catch((error) => Promise.reject(orderFailed(error)))
          : undefined,
      });
    } catch (error) {
      // The same form sent twice at once: while this one waited for its turn, the other made the
      // order (and emptied the cart). It answers with that order, as a form sent again does.
      const made = await findSubmittedOrder(db, input.userId, input.submissionKey);
      if (made) return { order: made, duplicate: true };
      throw error;
    }
  }
  const removeReceipt = () => (receiptPath ? removeFilesQuietly(storage, "private", [receiptPath]) : undefined);
  try {
    if (!cartId) throw new UserError("checkout.errors.emptyCart", { status: 409 });
    const placed = await placeOrder(
      db,
      { publicUrl: input.publicUrl, demoMode: input.demoMode },
      {
        userId: input.userId,
        cartId,
        currency: input.currency,
        locale: input.locale,
        customer: checkout.customer,
        receiptPath,
        submissionKey: input.submissionKey,
        orderNumber: checkout.orderNumber ?? undefined,
        defaultPaymentWindowHours: input.defaultPaymentWindowHours,
        ageConfirmation: checkout.ageConfirmation,
        whenPlaced: input.whenPlaced,
      },
    );
    if (placed.duplicate) await removeReceipt();
    return placed;
  } catch (error) {
    await removeReceipt();
    throw orderFailed(error);
  }
}

/**
 * The refusals that are about the cart itself, which the shopper fixes on the cart page: a colour
 * with less stock than the line (sold out meanwhile), a product no longer sold, an empty cart.
 */
const CART_REFUSALS = new Set([
  "checkout.errors.outOfStock",
  "checkout.errors.unavailable",
  "checkout.errors.emptyCart",
]);

/** Whether a refused payment's problem (payment.orderFailed) is about the cart (CART_REFUSALS). */
export function isCartRefusal(problem: Problem): boolean {
  return problem.key === "payment.orderFailed" && CART_REFUSALS.has(problem.detailKey ?? "");
}

/** A refused order as the payment form says it: 409, the reason as its detail. */
function orderFailed(error: unknown): unknown {
  if (!(error instanceof UserError)) return error;
  return new UserError("payment.orderFailed", { detailKey: error.key, params: error.params, status: 409 });
}

/** A line's product is hidden from shoppers (its category inactive): not sold. */
function refuseHidden(lines: CartLineRow[], locale: Language): void {
  const hidden = lines.find((line) => line.category_is_active === 0);
  if (hidden) {
    throw new UserError("checkout.errors.unavailable", {
      params: { name: localized(hidden, "name", locale) },
      status: 409,
    });
  }
}

function outOfStock(line: CartLineRow, left: number, locale: Language): UserError {
  return new UserError("checkout.errors.outOfStock", {
    params: {
      name: localized(line, "name", locale),
      color: variantName(line, locale) || line.color,
      count: left,
    },
    status: 409,
  });
}

/**
 * Refuses, outside any transaction, a cart placeOrder would refuse now for what it holds: empty,
 * a product hidden, a colour with less stock than the line wants. The same refusals as
 * placeOrder's, read from the committed state; placeOrder decides in its transaction.
 */
export async function refuseUnplaceableCart(db: DB, cartId: string, locale: Language): Promise<void> {
  const lines = await cartLineRows(db, cartId);
  if (lines.length === 0) throw new UserError("checkout.errors.emptyCart", { status: 409 });
  refuseHidden(lines, locale);
  const short = lines.find((line) => (line.stock ?? 0) < line.quantity);
  if (short) throw outOfStock(short, short.stock ?? 0, locale);
}

/**
 * Places an order in one transaction: prices, shipping and total recomputed from the database
 * in the order's currency; each colour's stock taken with a conditional update (never below
 * zero, whatever arrives at once); the order and its lines with snapshotted names, colour (in
 * English and Chinese) and unit price; the cart emptied; the customer's 'Order received' e-mail
 * and the shop's alert queued (docs/decisions/044). A product hidden from shoppers (its category
 * inactive) is refused. Anything that fails leaves nothing behind, e-mails included; a mail
 * server that is down fails nothing.
 */
export async function placeOrder(
  db: DB,
  config: OrderMailConfig,
  input: PlaceOrderInput,
): Promise<{ order: OrderRow; duplicate: boolean }> {
  const placed = await db.transaction().execute(async (trx) => {
    // The cart's row lock (a no-op on SQLite, whose transactions already write one at a time)
    // makes two sends of one checkout run in turn on PostgreSQL: the second then finds the order
    // the first made by its submission key, and never takes stock for a cart already emptied.
    await lockRows(trx, "carts", "id", input.cartId);
    // Checked again inside the transaction: two sends at once still make one order.
    const existing = await findSubmittedOrder(trx, input.userId, input.submissionKey);
    if (existing) return { order: existing, duplicate: true };

    const lines = await cartLineRows(trx, input.cartId);
    if (lines.length === 0) throw new UserError("checkout.errors.emptyCart", { status: 409 });
    // Hidden from shoppers since it went into the cart (its category is inactive): not sold.
    refuseHidden(lines, input.locale);
    // An 18+ item needs the shopper's confirmation, whatever the form said (docs/decisions/049).
    const age = await requireAgeConfirmation(trx, input.cartId, input.ageConfirmation, input.locale);

    // No oversell under any isolation: the conditional update is one statement, and on
    // PostgreSQL a concurrent buyer of the same colour waits on its row lock, then re-checks
    // `stock >= quantity` against the committed value.
    for (const line of lines) {
      const taken = await trx
        .updateTable("product_variants")
        .set((eb) => ({ stock: eb("stock", "-", line.quantity) }))
        .where("product_id", "=", line.product_id)
        .where("color", "=", line.color)
        .where("option_value", "=", line.option_value)
        .where("stock", ">=", line.quantity)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) {
        const left = await trx
          .selectFrom("product_variants")
          .select("stock")
          .where("product_id", "=", line.product_id)
          .where("color", "=", line.color)
          .where("option_value", "=", line.option_value)
          .executeTakeFirst();
        throw outOfStock(line, left?.stock ?? 0, input.locale);
      }
    }

    // The price in effect at placement: a sale that ended since the cart was shown no longer
    // applies, one that began does (docs/decisions/053).
    const placedAt = input.at ?? new Date();
    const priced = lines.map((line) => {
      const unit = priceNow(line, input.currency, placedAt).cents;
      return { ...line, unit, total: unit * line.quantity };
    });
    const subtotal = priced.reduce((sum, line) => sum + line.total, 0);
    const shop = await loadShop(trx);
    const timestamp = now(placedAt);
    const { customer } = input;
    // The cart's code, checked again and its use taken in this transaction (docs/decisions/048):
    // a code that no longer applies refuses the order with its reason.
    const cartCode = await trx
      .selectFrom("carts")
      .select("discount_code")
      .where("id", "=", input.cartId)
      .executeTakeFirst();
    const discount = cartCode?.discount_code
      ? await takeDiscountUse(trx, {
          code: cartCode.discount_code,
          lines: priced.map((line) => ({ productId: line.product_id, lineTotalCents: line.total })),
          currency: input.currency,
          rates: shop.exchangeRates,
          shopper: { userId: input.userId, email: customer.email },
          at: placedAt,
        })
      : null;
    const discountCents = discount?.discountCents ?? 0;
    const weightGrams = lines.reduce((sum, line) => sum + line.weight_grams * line.quantity, 0);
    // Shipping for the destination's zone as the zones stand in this transaction, in the order's
    // currency (docs/decisions/047), on the subtotal after the discount (a cart discounted to
    // nothing still pays for delivery; a free-shipping code pays none: decision 048). A country
    // no zone covers is refused, whatever the form said.
    const countryCode = resolveCountry(input.customer.country);
    if (!countryCode) throw new UserError("checkout.errors.countryUnknown", { field: "country" });
    const quote = await shippingQuote(trx, {
      countryCode,
      currency: input.currency,
      subtotalCents: Math.max(subtotal - discountCents, 1),
      weightGrams,
    });
    if (!quote.shipped) {
      throw new UserError("checkout.errors.notShipped", {
        field: "country",
        params: { country: countryName(countryCode, input.locale) },
        status: 409,
      });
    }
    // An item limited to other zones is refused, naming it and where it can go (docs/decisions/049).
    await requireShippable(trx, lines, quote.zone.id, input.locale);
    const shipping = discount?.freeShipping ? 0 : quote.shippingCents;
    const order = {
      id: crypto.randomUUID(),
      // The number the payment page showed (and its FPS code carried), when still free.
      order_number: await freeOrderNumber(trx, input.orderNumber),
      user_id: input.userId,
      status: "pending_payment" as const,
      currency: input.currency,
      locale: input.locale,
      // After the discount, so that total = subtotal + shipping (migration 0001's check) still
      // holds; the lines' own sum is subtotal_cents + discount_cents (docs/decisions/048).
      subtotal_cents: subtotal - discountCents,
      shipping_cents: shipping,
      total_cents: subtotal - discountCents + shipping,
      discount_code: discount?.code ?? null,
      discount_cents: discountCents,
      first_name: customer.firstName,
      last_name: customer.lastName,
      email: customer.email.toLowerCase(),
      phone: customer.phone ?? null,
      address: customer.address,
      city: customer.city,
      postal_code: customer.postalCode ?? null,
      // The country's name in the order's language (what older code and exports read); the code decides.
      country: countryName(countryCode, input.locale),
      country_code: countryCode,
      shipping_zone_id: quote.zone.id,
      shipping_zone_name: quote.zone.nameEn,
      notes: customer.notes ?? null,
      receipt_path: input.receiptPath,
      receipt_uploaded_at: input.receiptPath ? timestamp : null,
      submission_key: input.submissionKey,
      age_confirmed_at: age?.at ?? null,
      age_confirmed_ip: age?.ip ?? null,
      // The window as the shop sets it now; the order keeps it whatever the setting becomes.
      ...paymentDeadlines(
        placedAt,
        paymentWindowHours(shop, {
          paymentWindowHours: input.defaultPaymentWindowHours ?? DEFAULT_PAYMENT_WINDOW_HOURS,
        }),
      ),
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
          // The second option and the SKU as they are now (docs/decisions/054).
          option_name: line.option_value ? line.option_name : null,
          option_name_zh: line.option_value ? line.option_name_zh : null,
          option_value: line.option_value || null,
          option_value_zh: line.option_value ? (line.option_value_zh ?? null) : null,
          sku: line.sku ?? null,
          image_path: line.image_path,
          unit_price_cents: line.unit,
          quantity: line.quantity,
          line_total_cents: line.total,
        })),
      )
      .execute();
    if (discount) await recordDiscountUse(trx, discount, order, placedAt);
    await trx.deleteFrom("cart_lines").where("cart_id", "=", input.cartId).execute();
    if (discount) await trx.updateTable("carts").set({ discount_code: null }).where("id", "=", input.cartId).execute();
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
          ...(discount ? { discount_code: discount.code, discount_cents: discountCents } : {}),
        }),
        created_at: timestamp,
      })
      .execute();
    const row = await trx.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    await queueOrderReceivedEmail(trx, config, row);
    await recordShopEvent(trx, { type: "order.placed", at: placedAt, publicUrl: config.publicUrl, orderId: order.id });
    await input.whenPlaced?.(trx, row);
    return { order: row, duplicate: false };
  });
  // Counted once committed; the same form sent again answered with its order is not a new one.
  if (!placed.duplicate) countOrderPlaced();
  return placed;
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
