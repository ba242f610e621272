import type { RouterContextProvider } from "react-router";
import { services } from "~/context";
import {
  cartIdForUser,
  countCartLines,
  createAnonymousCart,
  findAnonymousCart,
  findUserCart,
  mergeCarts,
} from "~/models/cart.server";
import { getUser } from "./auth.server";
import { getSession, setSessionValue } from "./session.server";
import { getVisitor } from "./visitor.server";

/**
 * Which cart this request uses: a signed-in user's own cart, otherwise the anonymous cart
 * whose id the session cookie carries. `create` makes one when there is none yet.
 */
export async function currentCartId(context: Readonly<RouterContextProvider>, create = false): Promise<string | null> {
  const { db } = services(context);
  const user = getUser(context);
  if (user) return create ? cartIdForUser(db, user.id) : findUserCart(db, user.id);
  const session = getSession(context);
  const stored = typeof session.data.cartId === "string" ? session.data.cartId : null;
  const existing = await findAnonymousCart(db, stored);
  if (existing || !create) return existing;
  const id = await createAnonymousCart(db);
  setSessionValue(session, "cartId", id);
  return id;
}

/** At sign-in: the anonymous cart's lines move into the user's cart (capped at stock). */
export async function mergeCartAtSignIn(context: Readonly<RouterContextProvider>, userId: string): Promise<number> {
  const session = getSession(context);
  const stored = typeof session.data.cartId === "string" ? session.data.cartId : null;
  const { db } = services(context);
  const anonymous = await findAnonymousCart(db, stored);
  setSessionValue(session, "cartId", undefined);
  if (!anonymous) return 0;
  const { capped } = await mergeCarts(db, anonymous, userId);
  return capped;
}

/**
 * The header's cart count: on a GET, the visitor's (counted once, before the loaders, by
 * readVisitor); after an action, which may have changed the cart in this same request, counted again.
 */
export async function headerCartCount(context: Readonly<RouterContextProvider>, request: Request): Promise<number> {
  const visitor = getVisitor(context);
  if (visitor && (request.method === "GET" || request.method === "HEAD")) return visitor.cartCount;
  return countCartLines(services(context).db, await currentCartId(context));
}
