import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { UserError } from "~/lib/problem";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { placeOrder } from "~/models/orders/place.server";
import { allowedZonesOf, shipsToText } from "~/models/orders/restrictions.server";
import { createZone, type ZoneInput } from "~/models/shipping/zones.server";
import { setDestination } from "~/request/destination.server";
import { loader as cartLoader } from "~/routes/store/cart";
import { loader as productLoader } from "~/routes/store/product";
import type { CheckoutInput } from "~/schemas/checkout";
import { createCategory, createProduct, createSignedIn, TEST_CONFIG } from "./factories";
import { createTestServices } from "./setup/db";
import { routeContext, runRoute } from "./setup/route";

/**
 * Restricted items (issue 27, docs/decisions/049): a product or category limited to some zones;
 * placeOrder refuses an item whose zones do not hold the destination's, naming it and where it
 * can go, whatever the form said.
 */

const svc = await createTestServices();
const { db } = svc;
const owner = await createSignedIn(db, { admin: true });

const rate = { feeCents: 30_00, freeAboveCents: null, bands: [] };
const zone = (nameEn: string, nameZh: string, countries: string[]): ZoneInput => ({
  nameEn,
  nameZh,
  sortOrder: 1,
  countries,
  rates: { HKD: rate, GBP: rate, EUR: rate, USD: rate },
});

// Hong Kong is in the default zone; Taiwan and Macau get zones of their own.
const everywhere = (await db.selectFrom("shipping_zones").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
const taiwan = await createZone(db, owner.id, zone("Taiwan", "台灣", ["TW"]));
const macau = await createZone(db, owner.id, zone("Macau", "澳門", ["MO"]));
const hongKong =
  (await db.selectFrom("shipping_zone_countries").select("zone_id").where("country_code", "=", "HK").executeTakeFirst())
    ?.zone_id ?? everywhere;

async function limitProduct(productId: number, zoneIds: number[]) {
  for (const zone_id of zoneIds)
    await db.insertInto("product_ship_zones").values({ product_id: productId, zone_id }).execute();
}
async function limitCategory(categoryId: number, zoneIds: number[]) {
  for (const zone_id of zoneIds) {
    await db.insertInto("category_ship_zones").values({ category_id: categoryId, zone_id }).execute();
  }
}

async function order(productId: number, country: string, locale: "en" | "zh" = "en") {
  const user = await createSignedIn(db);
  const cartId = await cartIdForUser(db, user.id);
  await addToCart(db, cartId, { productId, color: "Black", quantity: 1 });
  return placeOrder(db, TEST_CONFIG, {
    userId: user.id,
    cartId,
    currency: "HKD",
    locale,
    customer: {
      firstName: "Chan",
      lastName: "Tai Man",
      email: user.email,
      address: "1 Road",
      city: "City",
      country,
    } as CheckoutInput,
    receiptPath: null,
    submissionKey: crypto.randomUUID(),
  });
}

describe("restricted items at placement", () => {
  it("refuses a rifle limited to Hong Kong for Taiwan, naming it and where it can go", async () => {
    const rifle = await createProduct(db, { name_en: `Rifle ${crypto.randomUUID()}`, name_zh: "長槍" });
    await limitProduct(rifle.id, [hongKong]);
    const refused = await order(rifle.id, "TW").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).key).toBe("checkout.errors.restricted");
    expect((refused as UserError).params.name).toBe(rifle.name_en);
    expect((refused as UserError).status).toBe(409);
    const zh = await order(rifle.id, "TW", "zh").catch((error: unknown) => error);
    expect((zh as UserError).params.name).toBe("長槍");
    expect(await db.selectFrom("orders").select("id").where("country_code", "=", "TW").execute()).toHaveLength(0);
  });

  it("allows it when the destination is in its zones, and an unlimited product anywhere the shop ships", async () => {
    const rifle = await createProduct(db);
    await limitProduct(rifle.id, [hongKong, macau]);
    expect((await order(rifle.id, "HK")).order.shipping_zone_id).toBe(hongKong);
    expect((await order(rifle.id, "MO")).order.shipping_zone_id).toBe(macau);
    const plain = await createProduct(db);
    expect((await order(plain.id, "TW")).order.shipping_zone_id).toBe(taiwan);
  });

  it("applies a category's limit to its products, intersected with the product's own", async () => {
    const guns = await createCategory(db);
    await limitCategory(guns.id, [hongKong, macau]);
    const pistol = await createProduct(db, { category_id: guns.id });
    const refused = await order(pistol.id, "TW").catch((error: unknown) => error);
    expect((refused as UserError).key).toBe("checkout.errors.restricted");
    expect((refused as UserError).params.zones).toContain("Macau");
    const rifle = await createProduct(db, { category_id: guns.id });
    await limitProduct(rifle.id, [macau, taiwan]);
    const allowed = (await allowedZonesOf(db, [rifle.id, pistol.id])).get(rifle.id);
    expect(allowed?.map((z) => z.id)).toEqual([macau]);
    expect((await order(rifle.id, "MO")).order.shipping_zone_id).toBe(macau);
    await expect(order(rifle.id, "TW")).rejects.toBeInstanceOf(UserError);
    await expect(order(rifle.id, "HK")).rejects.toBeInstanceOf(UserError);
  });

  it("says so when the limits have no zone in common", async () => {
    const guns = await createCategory(db);
    await limitCategory(guns.id, [hongKong]);
    const product = await createProduct(db, { category_id: guns.id });
    await limitProduct(product.id, [taiwan]);
    const refused = await order(product.id, "HK").catch((error: unknown) => error);
    expect((refused as UserError).key).toBe("checkout.errors.restrictedNowhere");
  });
});

describe("the product page says where it ships", () => {
  it("names the zones in the page's language, nothing for an unlimited product", async () => {
    const rifle = await createProduct(db);
    await limitProduct(rifle.id, [macau, taiwan]);
    const page = await runRoute(svc, productLoader, new Request(`http://localhost/product/${rifle.id}`), null, {
      id: String(rifle.id),
    });
    expect((page.result as { product: { shipsTo: string | null } }).product.shipsTo).toBe("Taiwan, Macau");
    expect(await shipsToText(db, rifle.id, "zh")).toBe("台灣、澳門");
    expect(await shipsToText(db, (await createProduct(db)).id, "en")).toBeNull();
  });
});

type CartPage = { restricted: { key: string; params: Record<string, string> }[] };

describe("the cart says which item cannot go to the destination", () => {
  it("names the item and where it can go for Taiwan, nothing for Hong Kong", async () => {
    const rifle = await createProduct(db, { name_en: `Cart rifle ${crypto.randomUUID()}` });
    await limitProduct(rifle.id, [hongKong]);
    const user = await createSignedIn(db);
    const cartId = await cartIdForUser(db, user.id);
    await addToCart(db, cartId, { productId: rifle.id, color: "Black", quantity: 1 });
    const ctxTw = routeContext(svc, user);
    setDestination(ctxTw, "TW");
    const tw = await runRoute(svc, cartLoader, new Request("http://localhost/cart"), user, {}, ctxTw);
    const messages = (tw.result as CartPage).restricted;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ key: "checkout.errors.restricted", params: { name: rifle.name_en } });
    const ctxHk = routeContext(svc, user);
    setDestination(ctxHk, "HK");
    const hk = await runRoute(svc, cartLoader, new Request("http://localhost/cart"), user, {}, ctxHk);
    expect((hk.result as CartPage).restricted).toEqual([]);
  });
});

describe("the product editor's zones", () => {
  it("saves the ticked zones through the editor model (a zone that no longer exists dropped)", async () => {
    const product = await createProduct(db, { ship_zone_ids: [macau, taiwan, 999_999] });
    expect(await shipsToText(db, product.id, "en")).toBe("Taiwan, Macau");
    expect(await shipsToText(db, (await createProduct(db, { ship_zone_ids: [] })).id, "en")).toBeNull();
  });
});

describe("the category form's zones", () => {
  it("limits every product of the category through the categories model", async () => {
    const guns = await createCategory(db, { ship_zones: [String(macau)] });
    const product = await createProduct(db, { category_id: guns.id });
    expect(await shipsToText(db, product.id, "zh")).toBe("澳門");
    await expect(order(product.id, "TW")).rejects.toBeInstanceOf(UserError);
  });
});

describe("the forms' zone boxes after a refused save", () => {
  it("show what was sent (nothing ticked included), else the saved limit", async () => {
    const { chosenZones } = await import("~/components/admin/ship-zone-choice");
    expect(chosenZones(undefined, [1, 2])).toEqual([1, 2]);
    expect(chosenZones({ initialValue: { name_en: "x", ship_zones: ["3", "4"] } }, [1])).toEqual([3, 4]);
    expect(chosenZones({ initialValue: { name_en: "x", ship_zones: "5" } }, [1])).toEqual([5]);
    expect(chosenZones({ initialValue: { name_en: "x" } }, [1])).toEqual([]);
  });
});
