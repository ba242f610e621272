import crypto from "node:crypto";
import type { RouterContextProvider } from "react-router";
import { now } from "#db/connect.server";
import type { AdminRole } from "#db/schema";
import type { Services } from "~/context";
import { i18nextMiddleware } from "~/middleware/i18next";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { newOrderNumber } from "~/models/orders/place.server";
import { type CurrentUser, loadCurrentUser, userContext } from "~/request/auth.server";
import { saveCheckout } from "~/request/checkout.server";
import { emptySession, sessionContext } from "~/request/session.server";
import { createCustomer, createProduct } from "../factories";
import { createTestContext } from "./db";

/** The request context of a route test: test services, an empty session and `user` (null: signed out). */
export function routeContext(svc: Services, user: CurrentUser | null): RouterContextProvider {
  const ctx = createTestContext(svc);
  ctx.set(sessionContext, emptySession());
  ctx.set(userContext, user);
  return ctx;
}

/**
 * Runs a real loader or action behind the real i18n middleware, as the server does. Returns
 * what it returned or threw, the flash it set and its context (for the session).
 */
export async function runRoute<T>(
  svc: Services,
  fn: (args: never) => Promise<T>,
  request: Request,
  user: CurrentUser | null,
  params: Record<string, string> = {},
  ctx: RouterContextProvider = routeContext(svc, user),
) {
  const args = { request, params, context: ctx, pattern: "" };
  let result: T | undefined;
  let thrown: unknown;
  await i18nextMiddleware(args as unknown as Parameters<typeof i18nextMiddleware>[0], async () => {
    try {
      result = await fn(args as never);
    } catch (error) {
      thrown = error;
    }
    return new Response(null);
  });
  const flash = ctx.get(sessionContext).data.flash as { type: string; key: string; detailKey?: string } | undefined;
  return { result, thrown, flash, ctx };
}

/** A form body: every value appended under its key (a file is a `File`; a list repeats the key). */
export function formOf(fields: Record<string, string | Blob | readonly (string | Blob)[]>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, item as string | Blob);
  }
  return form;
}

/** The status of a route's answer: a Response's, or a `data(…, { status })` answer's init. */
export function statusOf(value: unknown): number | undefined {
  if (value instanceof Response) return value.status;
  return (value as { init?: { status?: number } | null } | undefined)?.init?.status ?? undefined;
}

/** The body of a `data(…)` answer. */
export function dataOf<T>(value: unknown): T {
  return (value as { data: T }).data;
}

/** A new signed-in admin of `role` (owner or staff), loaded the way a request loads its user. */
export async function adminAccount(svc: Services, role: AdminRole): Promise<CurrentUser> {
  const user = await createCustomer(svc.db, { email: `${role}-${crypto.randomUUID()}@shop.hk` });
  await svc.db
    .insertInto("admin_users")
    .values({ user_id: user.id, email: user.email, role, created_at: now() })
    .execute();
  const session = emptySession();
  session.userId = user.id;
  const loaded = await loadCurrentUser(createTestContext(svc), session);
  if (!loaded) throw new Error("not signed in");
  return loaded;
}

/**
 * A shopper with one product (4 in stock) in the cart and a saved checkout, at the payment page:
 * their account, the request context holding the checkout, and the payment form's key.
 */
export async function shopperAtPayment(svc: Services) {
  const product = await createProduct(svc.db, { price_hkd_cents: 300_00, variants: [["Black", 4]] });
  const row = await createCustomer(svc.db);
  const user: CurrentUser = { id: row.id, email: row.email, isAdmin: false, role: null };
  await addToCart(svc.db, await cartIdForUser(svc.db, row.id), { productId: product.id, color: "Black", quantity: 1 });
  const ctx = routeContext(svc, user);
  const checkout = saveCheckout(
    ctx,
    {
      firstName: "Chan",
      lastName: "Tai Man",
      email: row.email,
      phone: undefined,
      address: "1 Nathan Road",
      city: "Kowloon",
      postalCode: undefined,
      country: "Hong Kong",
      notes: undefined,
    },
    newOrderNumber(),
  );
  return { product, user, ctx, submissionKey: checkout.submissionKey };
}
