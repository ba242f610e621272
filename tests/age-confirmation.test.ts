import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { requestInfoContext } from "~/context";
import { UserError } from "~/lib/problem";
import en from "~/locales/en/translation";
import zh from "~/locales/zh/translation";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import {
  cartNeedsAgeConfirmation,
  DEFAULT_AGE_TEXT,
  loadAgeText,
  requireAgeConfirmation,
  saveAgeText,
} from "~/models/orders/age.server";
import { placeOrder } from "~/models/orders/place.server";
import type { CurrentUser } from "~/request/auth.server";
import { getCheckout } from "~/request/checkout.server";
import { sessionContext } from "~/request/session.server";
import { action as ageTextAction, loader as ageTextLoader } from "~/routes/admin/age-text";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/store/checkout";
import type { CheckoutInput } from "~/schemas/checkout";
import { createCategory, createProduct, createSignedIn, TEST_CONFIG } from "./factories";
import { createTestServices } from "./setup/db";
import { formOf, routeContext, runRoute } from "./setup/route";

/**
 * Age confirmation (issue 27, docs/decisions/049): a cart with an 18+ product (marked itself or
 * through its category) needs the shopper's "I am 18 or older" at checkout; the server refuses
 * without it, also when the form is forged, and the order records when and from where.
 */

const svc = await createTestServices();
const { db } = svc;

const CUSTOMER: CheckoutInput = {
  firstName: "Chan",
  lastName: "Tai Man",
  email: "chan@example.com",
  address: "1 Nathan Road",
  city: "Kowloon",
  country: "Hong Kong",
} as CheckoutInput;

async function product(options: { adult?: boolean; categoryAdult?: boolean } = {}) {
  let category_id: number | null = null;
  if (options.categoryAdult !== undefined) {
    const category = await createCategory(db);
    await db
      .updateTable("categories")
      .set({ adult_only: options.categoryAdult ? 1 : 0 })
      .where("id", "=", category.id)
      .execute();
    category_id = category.id;
  }
  const created = await createProduct(db, { category_id });
  if (options.adult) await db.updateTable("products").set({ adult_only: 1 }).where("id", "=", created.id).execute();
  return created;
}

async function shopperWith(productIds: number[]) {
  const user = await createSignedIn(db);
  const cartId = await cartIdForUser(db, user.id);
  for (const productId of productIds) await addToCart(db, cartId, { productId, color: "Black", quantity: 1 });
  return { user, cartId };
}

const place = (userId: string, cartId: string, ageConfirmation: { at: string; ip: string | null } | null) =>
  placeOrder(db, TEST_CONFIG, {
    userId,
    cartId,
    currency: "HKD",
    locale: "en",
    customer: CUSTOMER,
    receiptPath: null,
    submissionKey: crypto.randomUUID(),
    ageConfirmation,
  });

describe("which carts need the age confirmation", () => {
  it("only a cart holding a product marked 18+ or in an 18+ category", async () => {
    const plain = await product();
    const plainInCategory = await product({ categoryAdult: false });
    const adult = await product({ adult: true });
    const adultByCategory = await product({ categoryAdult: true });
    expect(await cartNeedsAgeConfirmation(db, (await shopperWith([plain.id, plainInCategory.id])).cartId)).toBe(false);
    expect(await cartNeedsAgeConfirmation(db, (await shopperWith([plain.id, adult.id])).cartId)).toBe(true);
    expect(await cartNeedsAgeConfirmation(db, (await shopperWith([adultByCategory.id])).cartId)).toBe(true);
    expect(await cartNeedsAgeConfirmation(db, null)).toBe(false);
  });
});

describe("placeOrder and the age confirmation", () => {
  it("places an order without 18+ items with no confirmation and records none", async () => {
    const { user, cartId } = await shopperWith([(await product()).id]);
    const { order } = await place(user.id, cartId, null);
    expect(order.age_confirmed_at).toBeNull();
    expect(order.age_confirmed_ip).toBeNull();
  });

  it("refuses an 18+ item without the confirmation, naming it, and leaves stock and cart as they were", async () => {
    const adult = await product({ categoryAdult: true });
    const { user, cartId } = await shopperWith([adult.id]);
    const refused = await place(user.id, cartId, null).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).key).toBe("checkout.errors.ageNotConfirmed");
    expect((refused as UserError).params.name).toBe(adult.name_en);
    expect((refused as UserError).status).toBe(409);
    expect(await db.selectFrom("orders").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
    expect(await db.selectFrom("cart_lines").select("id").where("cart_id", "=", cartId).execute()).toHaveLength(1);
  });

  it("records when and from which address the shopper confirmed", async () => {
    const { user, cartId } = await shopperWith([(await product({ adult: true })).id]);
    const at = "2026-11-26T10:00:00.000Z";
    const { order } = await place(user.id, cartId, { at, ip: "203.0.113.7" });
    expect(order.age_confirmed_at).toBe(at);
    expect(order.age_confirmed_ip).toBe("203.0.113.7");
  });

  it("names the item in the shopper's language", async () => {
    const adult = await product({ adult: true });
    const { cartId } = await shopperWith([adult.id]);
    const refused = await requireAgeConfirmation(db, cartId, null, "zh").catch((error: unknown) => error);
    expect((refused as UserError).params.name).toBe(adult.name_zh);
  });
});

describe("the checkbox's text", () => {
  it("has a default in both languages and takes the owner's, an empty one going back to the default", async () => {
    const owner = await createSignedIn(db, { admin: true });
    expect(await loadAgeText(db)).toEqual({ text_en: DEFAULT_AGE_TEXT.en, text_zh: DEFAULT_AGE_TEXT.zh });
    await saveAgeText(db, owner.id, { en: "I am an adult.", zh: "本人已成年。" });
    expect(await loadAgeText(db)).toEqual({ text_en: "I am an adult.", text_zh: "本人已成年。" });
    await saveAgeText(db, owner.id, { en: " ", zh: "" });
    expect(await loadAgeText(db)).toEqual({ text_en: DEFAULT_AGE_TEXT.en, text_zh: DEFAULT_AGE_TEXT.zh });
  });

  it("every message in both languages", () => {
    for (const messages of [en.checkout.errors, zh.checkout.errors]) {
      expect(messages.ageRequired).toBeTruthy();
      expect(messages.ageNotConfirmed).toContain("{{name}}");
    }
  });
});

const checkoutPost = (fields: Record<string, string>) =>
  new Request("http://localhost/checkout", {
    method: "POST",
    body: formOf({
      firstName: "Chan",
      lastName: "Tai Man",
      email: "chan@example.com",
      address: "1 Nathan Road",
      city: "Kowloon",
      country: "Hong Kong",
      ...fields,
    }),
  });

function contextFrom(user: Awaited<ReturnType<typeof createSignedIn>>) {
  const ctx = routeContext(svc, user);
  ctx.set(requestInfoContext, { nonce: "", ip: "198.51.100.23", proxyCountry: null });
  return ctx;
}

describe("the checkout page", () => {
  it("shows the checkbox's text only when the cart holds an 18+ item", async () => {
    const plain = await shopperWith([(await product()).id]);
    const adult = await shopperWith([(await product({ categoryAdult: true })).id]);
    const request = new Request("http://localhost/checkout");
    const withoutAge = await runRoute(svc, checkoutLoader, request, plain.user);
    expect((withoutAge.result as { ageText: string | null }).ageText).toBeNull();
    const withAge = await runRoute(svc, checkoutLoader, request, adult.user);
    expect((withAge.result as { ageText: string | null }).ageText).toBe(DEFAULT_AGE_TEXT.en);
  });

  it("refuses an 18+ cart without the box ticked next to the box, input kept (400), also a forged value", async () => {
    const { user } = await shopperWith([(await product({ adult: true })).id]);
    for (const fields of [{}, { ageConfirmed: "yes" }] as Record<string, string>[]) {
      const { result, ctx } = await runRoute(svc, checkoutAction, checkoutPost(fields), user, {}, contextFrom(user));
      const answer = result as { init: { status: number }; data: { result: { error: Record<string, string[]> } } };
      expect(answer.init.status).toBe(400);
      expect(answer.data.result.error.ageConfirmed).toEqual(["checkout.errors.ageRequired"]);
      expect(getCheckout(ctx)).toBeNull();
    }
  });

  it("keeps the confirmation's time and client address for the order", async () => {
    const { user } = await shopperWith([(await product({ adult: true })).id]);
    const before = Date.now();
    const { result, ctx } = await runRoute(
      svc,
      checkoutAction,
      checkoutPost({ ageConfirmed: "on" }),
      user,
      {},
      contextFrom(user),
    );
    expect((result as Response).headers.get("Location")).toBe("/payment");
    const saved = getCheckout(ctx)?.ageConfirmation;
    expect(saved?.ip).toBe("198.51.100.23");
    expect(Date.parse(saved?.at ?? "")).toBeGreaterThanOrEqual(before);
    expect(ctx.get(sessionContext).data.checkout).toBeTruthy();
  });

  it("asks nothing of a cart without 18+ items", async () => {
    const { user } = await shopperWith([(await product()).id]);
    const { result, ctx } = await runRoute(svc, checkoutAction, checkoutPost({}), user, {}, contextFrom(user));
    expect((result as Response).headers.get("Location")).toBe("/payment");
    expect(getCheckout(ctx)?.ageConfirmation).toBeNull();
  });
});

function statusOf(thrown: unknown): number | undefined {
  if (thrown instanceof Response) return thrown.status;
  const init = (thrown as { init?: { status?: number } } | null)?.init;
  return init?.status;
}

describe("Settings → Age confirmation", () => {
  const post = (fields: Record<string, string>) =>
    new Request("http://localhost/admin/settings/age", { method: "POST", body: formOf(fields) });

  it("the owner saves the text in both languages; too long is refused next to the box with the text kept", async () => {
    const owner = await createSignedIn(db, { admin: true });
    const long = await runRoute(svc, ageTextAction, post({ text_en: "x".repeat(501), text_zh: "好" }), owner);
    const answer = long.result as { init: { status: number }; data: { result: { error: Record<string, string[]> } } };
    expect(answer.init.status).toBe(400);
    expect(answer.data.result.error.text_en).toEqual(["adminAge.errors.tooLong"]);
    const saved = await runRoute(svc, ageTextAction, post({ text_en: "Adults only.", text_zh: "只限成年人。" }), owner);
    expect(saved.flash).toMatchObject({ key: "adminAge.saved" });
    expect(await loadAgeText(db)).toEqual({ text_en: "Adults only.", text_zh: "只限成年人。" });
    await saveAgeText(db, owner.id, { en: "", zh: "" });
  });

  it("is the owner's: staff and customers are refused", async () => {
    const staff: CurrentUser = { ...(await createSignedIn(db, { admin: true })), role: "staff" };
    const customer = await createSignedIn(db);
    expect(statusOf((await runRoute(svc, ageTextAction, post({ text_en: "Forged" }), staff)).thrown)).toBe(403);
    expect(statusOf((await runRoute(svc, ageTextAction, post({ text_en: "Forged" }), customer)).thrown)).toBe(403);
    const read = await runRoute(svc, ageTextLoader, new Request("http://localhost/admin/settings/age"), staff);
    expect(statusOf(read.thrown)).toBe(403);
    expect((await loadAgeText(db)).text_en).not.toBe("Forged");
  });
});
