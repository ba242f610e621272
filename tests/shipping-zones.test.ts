import { beforeEach, describe, expect, it } from "vitest";
import { UserError } from "~/lib/problem";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import {
  createZone,
  deleteZone,
  feeOfRate,
  listZones,
  shippingQuote,
  updateZone,
  type ZoneInput,
  type ZoneRate,
  zoneForCountry,
} from "~/models/shipping/zones.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/store/checkout";
import { createProduct, createSignedIn, placeTestOrder } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, routeContext, runRoute } from "./setup/route";

/*
 * Shipping zones (issue 27, docs/decisions/047) on a real database — SQLite, and PostgreSQL in
 * the `postgres` project: the default Everywhere zone, a zone naming countries, weight bands,
 * free-above thresholds per currency, a country no zone covers, and the owner's writes audited.
 */

let svc: TestServices;
let OWNER: CurrentUser;

beforeEach(async () => {
  svc = await freshTestServices();
  OWNER = await createSignedIn(svc.db, { admin: true });
});

const flat = (feeCents: number, freeAboveCents: number | null, bands: ZoneRate["bands"] = []): ZoneRate => ({
  feeCents,
  freeAboveCents,
  bands,
});

function macau(overrides: Partial<ZoneInput> = {}): ZoneInput {
  return {
    nameEn: "Macau",
    nameZh: "澳門",
    sortOrder: 1,
    countries: ["MO"],
    rates: {
      HKD: flat(30_00, 500_00, [
        { maxGrams: 1000, feeCents: 20_00 },
        { maxGrams: 5000, feeCents: 45_00 },
      ]),
      GBP: flat(3_00, 50_00),
      EUR: flat(3_50, null),
      USD: flat(4_00, 60_00),
    },
    ...overrides,
  };
}

describe("the default zone", () => {
  it("a new shop ships everywhere with the spec's rule in HKD, the others at the default rates", async () => {
    const zones = await listZones(svc.db);
    expect(zones).toHaveLength(1);
    expect(zones[0]).toMatchObject({ nameEn: "Everywhere", nameZh: "全球", restOfWorld: true, countries: [] });
    const quote = (currency: "HKD" | "GBP", subtotalCents: number) =>
      shippingQuote(svc.db, { countryCode: "tw", currency, subtotalCents, weightGrams: 0 });
    expect(await quote("HKD", 99_00)).toMatchObject({ shipped: true, shippingCents: 10_00 });
    expect(await quote("HKD", 100_00)).toMatchObject({ shipped: true, shippingCents: 10_00 });
    expect(await quote("HKD", 100_01)).toMatchObject({ shipped: true, shippingCents: 0 });
    expect(await quote("GBP", 9_00)).toMatchObject({ shipped: true, shippingCents: 1_00 });
    expect(await quote("GBP", 10_01)).toMatchObject({ shipped: true, shippingCents: 0 });
    expect(await quote("HKD", 0)).toMatchObject({ shipped: true, shippingCents: 0 });
  });
});

describe("zone lookup and fees", () => {
  it("a named country gets its zone's fee, bands by weight, its own threshold per currency", async () => {
    const id = await createZone(svc.db, OWNER.id, macau());
    expect((await zoneForCountry(svc.db, "mo"))?.id).toBe(id);
    expect((await zoneForCountry(svc.db, "HK"))?.nameEn).toBe("Everywhere");

    const mo = (currency: "HKD" | "GBP" | "EUR" | "USD", subtotalCents: number, weightGrams: number) =>
      shippingQuote(svc.db, { countryCode: "MO", currency, subtotalCents, weightGrams });
    // Bands: the first whose max is at least the weight; heavier than the last: the flat fee.
    expect(await mo("HKD", 200_00, 0)).toMatchObject({ shipped: true, shippingCents: 20_00 });
    expect(await mo("HKD", 200_00, 1000)).toMatchObject({ shipped: true, shippingCents: 20_00 });
    expect(await mo("HKD", 200_00, 1001)).toMatchObject({ shipped: true, shippingCents: 45_00 });
    expect(await mo("HKD", 200_00, 5001)).toMatchObject({ shipped: true, shippingCents: 30_00 });
    // The threshold beats every band.
    expect(await mo("HKD", 500_01, 9000)).toMatchObject({ shipped: true, shippingCents: 0 });
    // Per currency: GBP flat with its own threshold, EUR never free.
    expect(await mo("GBP", 49_00, 9000)).toMatchObject({ shipped: true, shippingCents: 3_00 });
    expect(await mo("GBP", 50_01, 9000)).toMatchObject({ shipped: true, shippingCents: 0 });
    expect(await mo("EUR", 10_000_00, 0)).toMatchObject({ shipped: true, shippingCents: 3_50 });
    const quote = await mo("USD", 10_00, 0);
    expect(quote.shipped && quote.zone.nameZh).toBe("澳門");
  });

  it("without a rest-of-world zone, a country no zone names is not shipped to", async () => {
    await createZone(svc.db, OWNER.id, macau());
    const everywhere = (await listZones(svc.db)).find((zone) => zone.restOfWorld);
    await deleteZone(svc.db, OWNER.id, everywhere?.id ?? 0);
    expect(await zoneForCountry(svc.db, "TW")).toBeNull();
    expect(
      await shippingQuote(svc.db, { countryCode: "TW", currency: "HKD", subtotalCents: 100, weightGrams: 0 }),
    ).toEqual({
      shipped: false,
      countryCode: "TW",
    });
    expect(
      await shippingQuote(svc.db, { countryCode: "MO", currency: "HKD", subtotalCents: 100, weightGrams: 0 }),
    ).toMatchObject({
      shipped: true,
    });
  });

  it("feeOfRate: empty cart free, bands in any order", () => {
    const rate = flat(50, null, [
      { maxGrams: 2000, feeCents: 20 },
      { maxGrams: 500, feeCents: 10 },
    ]);
    expect(feeOfRate(rate, 0, 100)).toBe(0);
    expect(feeOfRate(rate, 1, 100)).toBe(10);
    expect(feeOfRate(rate, 1, 501)).toBe(20);
    expect(feeOfRate(rate, 1, 2001)).toBe(50);
  });
});

describe("the owner's writes", () => {
  it("a country already in another zone is refused at the countries field; every change is audited", async () => {
    const id = await createZone(svc.db, OWNER.id, macau());
    const error = await createZone(svc.db, OWNER.id, macau({ nameEn: "Greater Bay", countries: ["CN", "MO"] })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).problem).toMatchObject({ field: "countries", params: { code: "MO" } });
    expect(await listZones(svc.db)).toHaveLength(2);

    // The zone itself may keep its own countries and take more.
    await updateZone(svc.db, OWNER.id, id, macau({ countries: ["MO", "TW"] }));
    expect((await zoneForCountry(svc.db, "TW"))?.id).toBe(id);
    await deleteZone(svc.db, OWNER.id, id);
    expect((await zoneForCountry(svc.db, "TW"))?.nameEn).toBe("Everywhere");

    const actions = await svc.db
      .selectFrom("audit_log")
      .select("action")
      .where("entity_type", "=", "shipping_zone")
      .orderBy("id")
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      "shipping_zone.created",
      "shipping_zone.updated",
      "shipping_zone.deleted",
    ]);
  });

  it("a zone change renews the page cache (content pages show the shipping fee)", async () => {
    const version = () =>
      svc.db.selectFrom("page_cache_version").select("version").where("id", "=", 1).executeTakeFirstOrThrow();
    const before = (await version()).version;
    await createZone(svc.db, OWNER.id, macau());
    expect((await version()).version).toBeGreaterThan(before);
  });
});

describe("placing an order", () => {
  it("charges the destination zone's fee on the order's weight and keeps the code and zone", async () => {
    const id = await createZone(svc.db, OWNER.id, macau());
    const product = await createProduct(svc.db, { price_hkd_cents: 150_00, variants: [["Black", 9]] });
    await svc.db.updateTable("products").set({ weight_grams: 800 }).where("id", "=", product.id).execute();
    const line = (quantity: number) => [{ productId: product.id, color: "Black", quantity }];

    // 800 g: the first band (HK$20); 2 × 800 g: the second (HK$45); above HK$500: free.
    const { order } = await placeTestOrder(svc.db, { lines: line(1), customer: { country: "MO" } });
    expect(order).toMatchObject({
      shipping_cents: 20_00,
      total_cents: 170_00,
      country_code: "MO",
      country: "Macau",
      shipping_zone_id: id,
      shipping_zone_name: "Macau",
    });
    const two = await placeTestOrder(svc.db, { lines: line(2), customer: { country: "MO" }, locale: "zh" });
    expect(two.order).toMatchObject({ shipping_cents: 45_00, country: "澳門" });
    const four = await placeTestOrder(svc.db, { lines: line(4), customer: { country: "MO" } });
    expect(four.order.shipping_cents).toBe(0);

    // Hong Kong (typed as a name by an older form): the Everywhere zone's rule.
    const home = await placeTestOrder(svc.db, { lines: line(1), customer: { country: "Hong Kong" } });
    expect(home.order).toMatchObject({ shipping_cents: 0, country_code: "HK", shipping_zone_name: "Everywhere" });
  });

  it("refuses a country no zone covers and a forged country, at the country field, selling nothing", async () => {
    await createZone(svc.db, OWNER.id, macau());
    const everywhere = (await listZones(svc.db)).find((zone) => zone.restOfWorld);
    await deleteZone(svc.db, OWNER.id, everywhere?.id ?? 0);
    const product = await createProduct(svc.db, { variants: [["Black", 9]] });
    const lines = [{ productId: product.id, color: "Black", quantity: 1 }];

    const refused = await placeTestOrder(svc.db, { lines, customer: { country: "TW" } }).catch(
      (caught: unknown) => caught,
    );
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).problem).toEqual({
      key: "checkout.errors.notShipped",
      field: "country",
      params: { country: "Taiwan" },
    });
    const forged = await placeTestOrder(svc.db, { lines, customer: { country: "Atlantis" } }).catch(
      (caught: unknown) => caught,
    );
    expect((forged as UserError).problem).toMatchObject({ key: "checkout.errors.countryUnknown", field: "country" });
    const stock = await svc.db
      .selectFrom("product_variants")
      .select("stock")
      .where("product_id", "=", product.id)
      .executeTakeFirstOrThrow();
    expect(stock.stock).toBe(9);
    expect(await svc.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });
});

describe("checkout's destination", () => {
  const CHECKOUT = "http://shop.test/checkout";
  const post = (fields: Record<string, string>) => new Request(CHECKOUT, { method: "POST", body: formOf(fields) });

  it("Update shipping (no JavaScript needed) shows the chosen zone's fee, keeps the input, and says where it does not ship", async () => {
    await createZone(svc.db, OWNER.id, macau({ rates: { ...macau().rates, HKD: flat(30_00, null) } }));
    const shopper = await createSignedIn(svc.db);
    const product = await createProduct(svc.db, { price_hkd_cents: 150_00, variants: [["Black", 9]] });
    await addToCart(svc.db, await cartIdForUser(svc.db, shopper.id), {
      productId: product.id,
      color: "Black",
      quantity: 1,
    });
    const ctx = routeContext(svc, shopper);

    const home = await runRoute(svc, checkoutLoader, new Request(CHECKOUT), shopper, {}, ctx);
    // Everywhere: HK$150 is above HK$100, free.
    expect(home.result).toMatchObject({ defaults: { country: "HK" }, cart: { shippingCents: 0 }, notShippedTo: null });
    expect(home.result?.countries[0]).toEqual({ code: "HK", name: "Hong Kong" });

    const update = await runRoute(
      svc,
      checkoutAction,
      post({ intent: "shipping", country: "MO", firstName: "Typed" }),
      shopper,
      {},
      ctx,
    );
    expect((update.result as Response).headers.get("Location")).toBe("/checkout");
    const macauPage = await runRoute(svc, checkoutLoader, new Request(CHECKOUT), shopper, {}, ctx);
    expect(macauPage.result).toMatchObject({
      defaults: { country: "MO", firstName: "Typed" },
      cart: { shippingCents: 30_00, totalCents: 180_00 },
    });

    const everywhere = (await listZones(svc.db)).find((zone) => zone.restOfWorld);
    await deleteZone(svc.db, OWNER.id, everywhere?.id ?? 0);
    await runRoute(svc, checkoutAction, post({ intent: "shipping", country: "TW" }), shopper, {}, ctx);
    const taiwan = await runRoute(svc, checkoutLoader, new Request(CHECKOUT), shopper, {}, ctx);
    expect(taiwan.result?.notShippedTo).toBe("Taiwan");
  });

  it("a country that is no ISO code is refused at its field with a 400", async () => {
    const shopper = await createSignedIn(svc.db);
    const { result } = await runRoute(svc, checkoutAction, post({ intent: "shipping", country: "XX" }), shopper);
    const { data, init } = result as unknown as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(init.status).toBe(400);
    expect(data.result.error.country).toEqual(["checkout.errors.countryUnknown"]);
  });
});
