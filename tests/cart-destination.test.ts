import { beforeEach, describe, expect, it } from "vitest";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { createZone, deleteZone, listZones } from "~/models/shipping/zones.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as cartAction, loader as cartLoader } from "~/routes/store/cart";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/store/checkout";
import { createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, routeContext, runRoute } from "./setup/route";

/*
 * The cart page's own destination (issue 27, docs/decisions/047): the shopper chooses where the
 * cart ships on the cart page ("Update shipping", a plain post), sees that zone's fee and whether
 * the shop ships there at all, and checkout follows the same choice.
 */

const CART = "http://shop.test/cart";
const CHECKOUT = "http://shop.test/checkout";
const post = (url: string, fields: Record<string, string>) =>
  new Request(url, { method: "POST", body: formOf(fields) });

let svc: TestServices;
let owner: CurrentUser;
let shopper: CurrentUser;

beforeEach(async () => {
  svc = await freshTestServices();
  owner = await createSignedIn(svc.db, { admin: true });
  shopper = await createSignedIn(svc.db);
  const product = await createProduct(svc.db, { price_hkd_cents: 50_00, variants: [["Black", 9]] });
  await addToCart(svc.db, await cartIdForUser(svc.db, shopper.id), {
    productId: product.id,
    color: "Black",
    quantity: 1,
  });
  const rate = (feeCents: number) => ({ feeCents, freeAboveCents: null, bands: [] });
  await createZone(svc.db, owner.id, {
    nameEn: "Macau",
    nameZh: "澳門",
    sortOrder: 1,
    countries: ["MO"],
    rates: { HKD: rate(35_00), GBP: rate(4_00), EUR: rate(4_00), USD: rate(5_00) },
  });
});

describe("the cart's destination", () => {
  it("starts from the shopper's country and follows Update shipping, checkout too", async () => {
    const ctx = routeContext(svc, shopper);
    const first = await runRoute(svc, cartLoader, new Request(CART), shopper, {}, ctx);
    // Everywhere's rule: HK$50 is below HK$100, so HK$10.
    expect(first.result).toMatchObject({ destination: "HK", cart: { shippingCents: 10_00 }, notShippedTo: null });
    expect(first.result?.countries[0]).toEqual({ code: "HK", name: "Hong Kong" });

    const update = await runRoute(svc, cartAction, post(CART, { intent: "shipping", country: "MO" }), shopper, {}, ctx);
    expect((update.result as Response).headers.get("Location")).toBe("/cart");
    const macau = await runRoute(svc, cartLoader, new Request(CART), shopper, {}, ctx);
    expect(macau.result).toMatchObject({ destination: "MO", cart: { shippingCents: 35_00, totalCents: 85_00 } });

    const checkout = await runRoute(svc, checkoutLoader, new Request(CHECKOUT), shopper, {}, ctx);
    expect(checkout.result).toMatchObject({ defaults: { country: "MO" }, cart: { shippingCents: 35_00 } });
  });

  it("a country chosen on the cart replaces the one checkout kept, so both pages agree", async () => {
    const ctx = routeContext(svc, shopper);
    await runRoute(
      svc,
      checkoutAction,
      post(CHECKOUT, { intent: "shipping", country: "TW", firstName: "Typed" }),
      shopper,
      {},
      ctx,
    );
    await runRoute(svc, cartAction, post(CART, { intent: "shipping", country: "MO" }), shopper, {}, ctx);
    const checkout = await runRoute(svc, checkoutLoader, new Request(CHECKOUT), shopper, {}, ctx);
    expect(checkout.result).toMatchObject({ defaults: { country: "MO", firstName: "Typed" } });
  });

  it("says before checkout when no zone covers the destination", async () => {
    const everywhere = (await listZones(svc.db)).find((zone) => zone.restOfWorld);
    await deleteZone(svc.db, owner.id, everywhere?.id ?? 0);
    const ctx = routeContext(svc, shopper);
    await runRoute(svc, cartAction, post(CART, { intent: "shipping", country: "TW" }), shopper, {}, ctx);
    const page = await runRoute(svc, cartLoader, new Request(CART), shopper, {}, ctx);
    expect(page.result).toMatchObject({ destination: "TW", notShippedTo: "Taiwan" });
  });

  it("an unknown country changes nothing and is said, not a 500", async () => {
    const ctx = routeContext(svc, shopper);
    const { result } = await runRoute(
      svc,
      cartAction,
      post(CART, { intent: "shipping", country: "XX" }),
      shopper,
      {},
      ctx,
    );
    expect((result as Response).status).toBe(303);
    const page = await runRoute(svc, cartLoader, new Request(CART), shopper, {}, ctx);
    expect(page.result).toMatchObject({ destination: "HK" });
  });
});
