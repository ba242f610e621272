import type { RouterContextProvider } from "react-router";
import type { Currency } from "#db/schema";
import { services } from "~/context";
import type { Problem } from "~/lib/problem";
import { type Cart, loadCart } from "~/models/cart.server";
import { type DiscountedCart, priceCartDiscount } from "~/models/discounts/cart.server";
import { getShop } from "~/models/settings/shop.server";
import { getUser } from "./auth.server";
import { currentCartId } from "./cart.server";
import { getDestination } from "./destination.server";
import { getSession, setSessionValue } from "./session.server";

/*
 * The shopper's code field (docs/decisions/048) posts to /cart/code from the cart, checkout and
 * payment pages. A refused code comes back to the page it was sent from as a one-time session
 * value — what they typed and why it was refused — so the reason shows next to the field with
 * and without JavaScript, and the input is kept.
 */

const ATTEMPT_KEY = "discountCodeAttempt";

export interface DiscountCodeAttempt {
  code: string;
  problem: Problem;
}

export function saveDiscountAttempt(context: Readonly<RouterContextProvider>, attempt: DiscountCodeAttempt): void {
  setSessionValue(getSession(context), ATTEMPT_KEY, attempt);
}

/** The refused attempt, read once (the next page view no longer shows it). */
export function takeDiscountAttempt(context: Readonly<RouterContextProvider>): DiscountCodeAttempt | null {
  const session = getSession(context);
  const value = session.data[ATTEMPT_KEY] as Partial<DiscountCodeAttempt> | undefined;
  if (!value) return null;
  setSessionValue(session, ATTEMPT_KEY, undefined);
  if (typeof value.code !== "string" || typeof value.problem?.key !== "string") return null;
  return { code: value.code.slice(0, 64), problem: value.problem };
}

/** Who uses a code on this request: the signed-in account and its e-mail, or nobody yet. */
export function discountShopper(context: Readonly<RouterContextProvider>) {
  const user = getUser(context);
  return { userId: user?.id ?? null, email: user?.email ?? null };
}

/**
 * The shopper's cart priced in `currency` for their destination, with its applied code (cart,
 * checkout and payment pages).
 */
export async function loadDiscountedCart(
  context: Readonly<RouterContextProvider>,
  currency: Currency,
  /** The destination to price shipping for (checkout's own choice); the shopper's, else. */
  destination?: string,
): Promise<DiscountedCart> {
  const { db } = services(context);
  const shop = await getShop(context);
  // Shipping for the shopper's destination (docs/decisions/047), then the code (decision 048).
  const cart: Cart = await loadCart(
    db,
    await currentCartId(context),
    currency,
    shop.shipping[currency],
    destination ?? getDestination(context),
  );
  return priceCartDiscount(db, cart, { rates: shop.exchangeRates, shopper: discountShopper(context) });
}
