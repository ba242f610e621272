import { type DB, now } from "#db/connect.server";
import type { ExchangeRates } from "~/lib/money";
import { type Problem, UserError } from "~/lib/problem";
import type { Cart } from "../cart.server";
import { shippingQuote } from "../shipping/zones.server";
import { checkDiscount, type DiscountQuote, type DiscountShopper, normaliseCode } from "./rules.server";
import { shippingAfterDiscount } from "./uses.server";

/*
 * The code a shopper applied is kept with their server cart (carts.discount_code), so it follows
 * them from the cart to checkout and payment, with and without JavaScript, and joins their cart
 * when they sign in. It is checked again every time the cart is priced, and once more when the
 * order is placed (placeOrder): a code that stopped applying shows its reason and takes nothing off.
 */

export interface DiscountContext {
  rates: ExchangeRates;
  shopper: DiscountShopper;
  at?: Date;
}

/** The discount line of a priced cart. */
export interface CartDiscount {
  code: string;
  cents: number;
  freeShipping: boolean;
}

export interface DiscountedCart extends Cart {
  /** The applied code that applies now, and what it takes off. */
  discount: CartDiscount | null;
  /** The applied code that does not apply now, and why (nothing is taken off). */
  discountProblem: (Problem & { code: string }) | null;
}

function linesOf(cart: Cart) {
  return cart.lines
    .filter((line) => line.available)
    .map((line) => ({ productId: line.productId, lineTotalCents: line.lineTotalCents }));
}

function quoteFor(db: DB, cart: Cart, code: string, context: DiscountContext): Promise<DiscountQuote> {
  return checkDiscount(db, {
    code,
    lines: linesOf(cart),
    currency: cart.currency,
    rates: context.rates,
    shopper: context.shopper,
    at: context.at ?? new Date(),
  });
}

/**
 * The cart with its applied code: the discount line, and shipping and the total recomputed in
 * the order of money (subtotal → discount → shipping on what is left, free with a free-shipping
 * code → total).
 */
export async function priceCartDiscount(db: DB, cart: Cart, context: DiscountContext): Promise<DiscountedCart> {
  const plain: DiscountedCart = { ...cart, discount: null, discountProblem: null };
  if (!cart.id) return plain;
  const row = await db.selectFrom("carts").select("discount_code").where("id", "=", cart.id).executeTakeFirst();
  const code = row?.discount_code;
  if (!code || linesOf(cart).length === 0) return plain;
  try {
    const quote = await quoteFor(db, cart, code, context);
    const discounted = cart.subtotalCents - quote.discountCents;
    const shipping = quote.freeShipping ? 0 : await shippingAfterCode(db, cart, discounted);
    return {
      ...cart,
      shippingCents: shipping,
      totalCents: discounted + shipping,
      discount: { code: quote.code, cents: quote.discountCents, freeShipping: quote.freeShipping },
      discountProblem: null,
    };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { ...plain, discountProblem: { ...error.problem, code } };
  }
}

/**
 * Shipping on the subtotal left after the code: the destination's zone quoted again (its bands and
 * threshold, docs/decisions/047), or the shop's rule for a cart priced without a destination.
 */
async function shippingAfterCode(db: DB, cart: Cart, discountedCents: number): Promise<number> {
  if (!cart.destination) return shippingAfterDiscount(discountedCents, true, cart.shippingRule, null);
  const zone = await shippingQuote(db, {
    countryCode: cart.destination.countryCode,
    currency: cart.currency,
    subtotalCents: Math.max(discountedCents, 1),
    weightGrams: cart.destination.weightGrams,
  });
  return zone.shipped ? zone.shippingCents : 0;
}

/**
 * Applies a code to the cart: checked against the cart's lines now (a refusal names the reason,
 * next to the code field, and keeps any code applied before), then kept with the cart.
 */
export async function applyCartCode(
  db: DB,
  cart: Cart,
  code: string,
  context: DiscountContext,
): Promise<DiscountQuote> {
  if (!cart.id || linesOf(cart).length === 0) {
    throw new UserError("discounts.errors.emptyCart", { field: "code", status: 409 });
  }
  const quote = await quoteFor(db, cart, normaliseCode(code), context);
  await db
    .updateTable("carts")
    .set({ discount_code: quote.code, updated_at: now() })
    .where("id", "=", cart.id)
    .execute();
  return quote;
}

/** Takes the applied code off the cart; the code it was, or null when there was none. */
export async function removeCartCode(db: DB, cartId: string | null): Promise<string | null> {
  if (!cartId) return null;
  const row = await db.selectFrom("carts").select("discount_code").where("id", "=", cartId).executeTakeFirst();
  if (!row?.discount_code) return null;
  await db.updateTable("carts").set({ discount_code: null, updated_at: now() }).where("id", "=", cartId).execute();
  return row.discount_code;
}
