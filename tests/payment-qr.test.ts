import crypto from "node:crypto";
import { createInstance } from "i18next";
import jsQR from "jsqr";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Currency } from "#db/schema";
import { crc16Ccitt, QUIET_ZONE_MODULES } from "~/lib/fps-qr.server";
import { I18nextInstanceProvider as I18nextProvider } from "~/lib/i18n";
import resources from "~/locales";
import { currencyContext } from "~/middleware/currency";
import { languageCookie } from "~/middleware/i18next";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import type { CurrentUser } from "~/request/auth.server";
import { loader as orderLoader } from "~/routes/store/account-order";
import { action as checkoutAction } from "~/routes/store/checkout";
import Payment, { loader, action as paymentAction } from "~/routes/store/payment";
import { addPrimaryBankAccount, createCustomer, createProduct, placeTestOrder, uniqueTag } from "./factories";
import { createTestServices, type TestServices } from "./setup/db";
import { formOf, routeContext, runRoute } from "./setup/route";

/**
 * The payment page's FPS QR code: an HKD cart paid to an FPS id gets one, drawn on the server
 * for the cart total, with the number the order will have as its bill number (field 62, reserved
 * at checkout, docs/decisions/041) and a 4-module quiet zone; the order placed from that page
 * takes exactly that number. A GBP cart gets the bank details (and the reference) only.
 */

/** The payload a QR reader finds in the SVG, and the symbol's quiet zone in modules on each side. */
async function readQr(svg: string) {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const scale = 8;
  const { data, info } = await sharp(Buffer.from(svg))
    .resize(size * scale, size * scale, { kernel: "nearest" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint8ClampedArray(data);
  const code = jsQR(pixels, info.width, info.height);
  // The dark modules' bounding box, in modules from each edge of the image.
  const dark = (x: number, y: number) => (pixels[(y * info.width + x) * 4] ?? 255) < 128;
  let [left, top, right, bottom] = [info.width, info.height, 0, 0];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (!dark(x, y)) continue;
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x);
      bottom = Math.max(bottom, y);
    }
  }
  const quiet = [left, top, info.width - 1 - right, info.height - 1 - bottom].map((px) => px / scale);
  // jsQR's version gives the symbol's own size: what is left of the image is the quiet zone.
  const symbol = 17 + 4 * (code?.version ?? 0);
  return { payload: code?.data ?? "", quiet, margin: (size - symbol) / 2 };
}

/** The top-level EMV fields of a payload. */
function emvFields(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < payload.length; at += 4 + Number(payload.slice(at + 2, at + 4))) {
    fields.set(payload.slice(at, at + 2), payload.slice(at + 4, at + 4 + Number(payload.slice(at + 2, at + 4))));
  }
  return fields;
}

/** The checkout form as a shopper fills it in. */
const CHECKOUT_FORM = {
  firstName: "Chan",
  lastName: "Tai Man",
  email: "chan@example.com",
  address: "Flat A, 12/F, 1 Nathan Road",
  city: "Tsim Sha Tsui",
  country: "Hong Kong",
};

/** The SVG of the FPS code on the order page of the customer's order `number`. */
async function fpsQrForOrderPage(svc: TestServices, user: CurrentUser, number: string) {
  const order = await svc.db
    .selectFrom("orders")
    .select("id")
    .where("order_number", "=", number)
    .executeTakeFirstOrThrow();
  const { result } = await runRoute(
    svc,
    orderLoader,
    new Request(`http://localhost/account/orders/${order.id}`),
    user,
    { id: order.id },
  );
  return (result as Awaited<ReturnType<typeof orderLoader>>).fpsQr?.svg;
}

async function paymentPage(currency: Currency, language: "en" | "zh" = "en") {
  const svc = await createTestServices({ demoMode: false });
  await addPrimaryBankAccount(svc.db);
  const product = await createProduct(svc.db, {
    name_en: `QR test ${uniqueTag()}`,
    name_zh: "二維碼測試",
    description_en: "",
    description_zh: "",
    price_hkd_cents: 1234_50,
    price_gbp_cents: 80_00,
    price_eur_cents: 90_00,
    price_usd_cents: 100_00,
    variants: [["Black", 100]],
  });
  const row = await createCustomer(svc.db, { email: `qr-${crypto.randomUUID()}@example.com`, password: "secret12" });
  const user = { id: row.id, email: row.email, isAdmin: false, role: null };
  await addToCart(svc.db, await cartIdForUser(svc.db, row.id), { productId: product.id, color: "Black", quantity: 1 });
  const ctx = routeContext(svc, user);
  ctx.set(currencyContext, currency);
  // The checkout form, as the shopper sends it: it reserves the order's number.
  const sent = await runRoute(
    svc,
    checkoutAction as never,
    new Request("http://localhost/checkout", {
      method: "POST",
      body: formOf(CHECKOUT_FORM),
    }),
    user,
    {},
    ctx,
  );
  expect((sent.result as Response).headers.get("Location")).toBe("/payment");
  const request = new Request("http://localhost/payment", {
    headers: { Cookie: await languageCookie.serialize(language) },
  });
  const { result, thrown } = await runRoute(svc, loader as never, request, user, {}, ctx);
  expect(thrown).toBeUndefined();
  const data = result as Awaited<ReturnType<typeof loader>>;
  const i18n = createInstance();
  await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
  const Stub = createRoutesStub([
    { id: "payment", path: "/payment", Component: Payment as unknown as React.ComponentType },
  ]);
  const html = renderToString(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(Stub, { initialEntries: ["/payment"], hydrationData: { loaderData: { payment: data } } }),
    ),
  );
  return { data, html, svc, ctx, user };
}

describe("the payment page's FPS QR code", () => {
  it("is drawn for an HKD cart, for its total, with the FPS id and amount as text", async () => {
    const { data, html } = await paymentPage("HKD");
    if (!data.ready) throw new Error("no checkout");
    expect(data.fpsQr).toMatchObject({ fpsId: "1648203" });
    const total = data.cart.totalCents;
    const amount = `${Math.floor(total / 100)}.${String(total % 100).padStart(2, "0")}`;
    expect(data.fpsQr?.amount).toBe(amount);

    const { payload, quiet, margin } = await readQr(data.fpsQr?.svg ?? "");
    expect(payload).toContain("0012hk.com.hkicl02071648203");
    expect(payload).toContain(`5303344540${amount.length}${amount}5802HK`);
    // The shop's English name, and the bill number: the order number reserved at checkout.
    const fields = emvFields(payload);
    expect(fields.get("59")).toBe(DEFAULT_SHOP.name.en);
    expect(data.orderNumber).toMatch(/^ORD-\d{13}-[0-9A-F]{6}$/);
    expect(fields.get("62")).toBe(`01${data.orderNumber.length}${data.orderNumber}`);
    // A quiet zone of 4 modules on every side, as the QR standard asks.
    expect(QUIET_ZONE_MODULES).toBe(4);
    expect(margin).toBe(4);
    expect(quiet).toEqual([4, 4, 4, 4]);
    expect(crc16Ccitt(payload.slice(0, -4)).toString(16).toUpperCase().padStart(4, "0")).toBe(payload.slice(-4));

    expect(html).toContain('data-testid="fps-qr"');
    expect(html).toMatch(/<svg role="img" aria-label="FPS QR code"[^>]* viewBox=/);
    expect(html).toContain(`Scan with your banking app to pay HK$${amount.replace(/\B(?=(\d{3})+\.)/, ",")} by FPS`);
    expect(html).toContain(`>${amount}</span>`);
    expect(html).toContain(">1648203</span>");
    // The reference, as text for a transfer typed by hand.
    expect(html).toMatch(new RegExp(`data-testid="payment-reference"[^>]*>${data.orderNumber}<`));
  });

  it("carries the number the order then takes, sent once or twice", async () => {
    const { data, svc, ctx, user } = await paymentPage("HKD");
    if (!data.ready) throw new Error("no checkout");
    const pay = () =>
      runRoute(
        svc,
        paymentAction as never,
        new Request("http://localhost/payment", {
          method: "POST",
          body: formOf({ submissionKey: data.submissionKey, intent: "later" }),
        }),
        user,
        {},
        ctx,
      );
    const first = await pay();
    expect((first.result as Response).headers.get("Location")).toBe(
      `/payment-success?order=${encodeURIComponent(data.orderNumber)}`,
    );
    // The same form again (a double click, the back button): the same order, no second one.
    const again = await pay();
    expect((again.result as Response).headers.get("Location")).toBe((first.result as Response).headers.get("Location"));
    const orders = await svc.db.selectFrom("orders").select("order_number").where("user_id", "=", user.id).execute();
    expect(orders).toEqual([{ order_number: data.orderNumber }]);
    // The order page's code carries the same number.
    const orderPage = await readQr((await fpsQrForOrderPage(svc, user, data.orderNumber)) ?? "");
    expect(emvFields(orderPage.payload).get("62")).toBe(`01${data.orderNumber.length}${data.orderNumber}`);
    expect(orderPage.quiet).toEqual([4, 4, 4, 4]);
  });

  it("keeps its number when the shopper goes back to change their details, and a taken number is never reused", async () => {
    const { data, svc, ctx, user } = await paymentPage("HKD");
    if (!data.ready) throw new Error("no checkout");
    const resend = await runRoute(
      svc,
      checkoutAction as never,
      new Request("http://localhost/checkout", {
        method: "POST",
        body: formOf({ ...CHECKOUT_FORM, address: "Flat B, 3/F, 2 Nathan Road" }),
      }),
      user,
      {},
      ctx,
    );
    expect((resend.result as Response).headers.get("Location")).toBe("/payment");
    const again = await runRoute(svc, loader as never, new Request("http://localhost/payment"), user, {}, ctx);
    const page = again.result as Awaited<ReturnType<typeof loader>>;
    if (!page.ready) throw new Error("no checkout");
    expect(page.orderNumber).toBe(data.orderNumber);
    expect(page.submissionKey).not.toBe(data.submissionKey);

    // Another order has that number by the time this one is placed (the same millisecond and
    // random suffix): this order gets a new number rather than failing.
    const other = await placeTestOrder(svc.db, { receiptPath: null });
    await svc.db
      .updateTable("orders")
      .set({ order_number: data.orderNumber })
      .where("id", "=", other.order.id)
      .execute();
    const placed = await runRoute(
      svc,
      paymentAction as never,
      new Request("http://localhost/payment", {
        method: "POST",
        body: formOf({ submissionKey: page.submissionKey, intent: "later" }),
      }),
      user,
      {},
      ctx,
    );
    const location = (placed.result as Response).headers.get("Location") ?? "";
    expect(location).toMatch(/^\/payment-success\?order=ORD-\d{13}-[0-9A-F]{6}$/);
    expect(location).not.toContain(data.orderNumber);
  });

  it("speaks Chinese on a Chinese page", async () => {
    const { html } = await paymentPage("HKD", "zh");
    expect(html).toContain("以轉數快支付 HK$");
    expect(html).toContain('data-testid="fps-qr"');
  });

  it("is not drawn for a GBP cart: bank details only", async () => {
    const { data, html } = await paymentPage("GBP");
    if (!data.ready) throw new Error("no checkout");
    expect(data.fpsQr).toBeNull();
    expect(data.instructions).toMatchObject({ kind: "international" });
    expect(html).toContain('data-testid="bank-account"');
    // The reference still goes with an international transfer.
    expect(html).toContain(`>${data.orderNumber}<`);
    expect(html).not.toContain('data-testid="fps-qr"');
    expect(html).not.toContain('<svg role="img"');
  });
});
