import crypto from "node:crypto";
import { createInstance } from "i18next";
import jsQR from "jsqr";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Currency } from "#db/schema";
import { saveCheckout } from "~/lib/checkout-session.server";
import { crc16Ccitt } from "~/lib/fps-qr.server";
import { I18nextInstanceProvider as I18nextProvider } from "~/lib/i18n";
import resources from "~/locales";
import { currencyContext } from "~/middleware/currency";
import { languageCookie } from "~/middleware/i18next";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";
import Payment, { loader } from "~/routes/store/payment";
import { addPrimaryBankAccount, createCustomer, createProduct, uniqueTag } from "./factories";
import { createTestServices } from "./setup/db";
import { routeContext, runRoute } from "./setup/route";

/**
 * The payment page's FPS QR code: an HKD cart paid to an FPS id gets one, drawn on the server
 * for the cart total; a GBP cart gets the bank details only.
 */

const CUSTOMER = {
  firstName: "Chan",
  lastName: "Tai Man",
  email: "chan@example.com",
  phone: undefined,
  address: "Flat A, 12/F, 1 Nathan Road",
  city: "Tsim Sha Tsui",
  postalCode: undefined,
  country: "Hong Kong",
  notes: undefined,
};

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
  saveCheckout(ctx, CUSTOMER);
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
  return { data, html };
}

describe("the payment page's FPS QR code", () => {
  it("is drawn for an HKD cart, for its total, with the FPS id and amount as text", async () => {
    const { data, html } = await paymentPage("HKD");
    if (!data.ready) throw new Error("no checkout");
    expect(data.fpsQr).toMatchObject({ fpsId: "1648203" });
    const total = data.cart.totalCents;
    const amount = `${Math.floor(total / 100)}.${String(total % 100).padStart(2, "0")}`;
    expect(data.fpsQr?.amount).toBe(amount);

    const { data: pixels, info } = await sharp(Buffer.from(data.fpsQr?.svg ?? ""))
      .resize(400)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const payload = jsQR(new Uint8ClampedArray(pixels), info.width, info.height)?.data ?? "";
    expect(payload).toContain("0012hk.com.hkicl02071648203");
    expect(payload).toContain(`5303344540${amount.length}${amount}5802HK`);
    // The shop's English name; no bill reference yet (the order has no number before it is placed).
    const fields = new Map<string, string>();
    for (let at = 0; at < payload.length; at += 4 + Number(payload.slice(at + 2, at + 4))) {
      fields.set(payload.slice(at, at + 2), payload.slice(at + 4, at + 4 + Number(payload.slice(at + 2, at + 4))));
    }
    expect(fields.get("59")).toBe(DEFAULT_SHOP.name.en);
    expect(fields.has("62")).toBe(false);
    expect(crc16Ccitt(payload.slice(0, -4)).toString(16).toUpperCase().padStart(4, "0")).toBe(payload.slice(-4));

    expect(html).toContain('data-testid="fps-qr"');
    expect(html).toMatch(/<svg role="img" aria-label="FPS QR code"[^>]* viewBox=/);
    expect(html).toContain(`Scan with your banking app to pay HK$${amount.replace(/\B(?=(\d{3})+\.)/, ",")} by FPS`);
    expect(html).toContain(`>${amount}</span>`);
    expect(html).toContain(">1648203</span>");
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
    expect(html).not.toContain('data-testid="fps-qr"');
    expect(html).not.toContain('<svg role="img"');
  });
});
