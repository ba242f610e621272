import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { UserError } from "~/lib/problem";
import { DEFAULT_SHIPPING_RULE, shippingFor } from "~/lib/shipping";
import { addToCart, loadCart } from "~/models/cart.server";
import { type PlaceOrderInput, placeOrder } from "~/models/orders/place.server";
import { DEFAULT_SHOP, SHOP_DETAILS_KEY, saveShopDetails } from "~/models/settings/shop.server";
import { type CheckoutInput, checkoutSchema } from "~/schemas/checkout";
import { createProduct, createShopper, TEST_CONFIG, uniqueTag, variantStock } from "./factories";
import { freshTestDb } from "./setup/db";

/**
 * Placing an order against a real, migrated SQLite file: stock taken exactly once and never
 * below zero, prices from the database, one order per payment form, all or nothing.
 */

let db: DB;
beforeEach(async () => {
  ({ db } = await freshTestDb());
});

const CUSTOMER: CheckoutInput = {
  firstName: "Chan",
  lastName: "Tai Man",
  email: "Chan.TaiMan@Example.com",
  phone: "+852 9123 4567",
  address: "Flat A, 12/F, 1 Nathan Road",
  city: "Tsim Sha Tsui",
  postalCode: undefined,
  country: "Hong Kong",
  notes: "Self-pickup",
};

interface ProductSpec {
  hkd?: number;
  gbp?: number;
  eur?: number;
  usd?: number;
  variants: [string, number][];
}

async function makeProduct(spec: ProductSpec): Promise<{ id: number; name_en: string }> {
  const name_en = `Order test product ${uniqueTag()}`;
  const { id } = await createProduct(db, {
    name_en,
    name_zh: `${name_en}（中）`,
    price_hkd_cents: spec.hkd ?? 60_00,
    price_gbp_cents: spec.gbp ?? 5_99,
    price_eur_cents: spec.eur ?? 6_99,
    price_usd_cents: spec.usd ?? 7_99,
    variants: spec.variants,
  });
  return { id, name_en };
}

/** A user and their (empty) cart. */
async function makeShopper(): Promise<{ userId: string; cartId: string }> {
  const { userId, cartId } = await createShopper(db);
  return { userId, cartId };
}

function stockOf(productId: number, color: string): Promise<number> {
  return variantStock(db, productId, color);
}

async function cartLines(cartId: string) {
  return db
    .selectFrom("cart_lines")
    .select(["product_id", "color", "quantity"])
    .where("cart_id", "=", cartId)
    .orderBy("id")
    .execute();
}

async function ordersOf(userId: string) {
  return db.selectFrom("orders").selectAll().where("user_id", "=", userId).execute();
}

function input(shopper: { userId: string; cartId: string }, overrides: Partial<PlaceOrderInput> = {}): PlaceOrderInput {
  return {
    ...shopper,
    currency: "HKD",
    locale: "en",
    customer: CUSTOMER,
    receiptPath: `receipts/${shopper.userId}/receipt.webp`,
    submissionKey: crypto.randomUUID(),
    ...overrides,
  };
}

async function orderError(action: () => Promise<unknown>): Promise<UserError> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error("expected a UserError, nothing was thrown");
}

describe("placeOrder", () => {
  it("takes exactly the bought quantities, snapshots the lines and empties the cart", async () => {
    const product = await makeProduct({
      hkd: 45_00,
      variants: [
        ["Black", 10],
        ["Tan", 4],
        ["Grey", 7],
      ],
    });
    const other = await makeProduct({ hkd: 8_00, variants: [["Default", 30]] });
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "3" });
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Tan", quantity: "4" });
    await addToCart(db, shopper.cartId, { productId: other.id, color: undefined, quantity: "2" });

    const { order, duplicate } = await placeOrder(
      db,
      TEST_CONFIG,
      input(shopper, { receiptPath: "receipts/x/r.webp" }),
    );
    expect(duplicate).toBe(false);
    expect(order.order_number).toMatch(/^ORD-\d{13}-[0-9A-F]{6}$/);
    expect(order).toMatchObject({
      user_id: shopper.userId,
      status: "pending_payment",
      currency: "HKD",
      locale: "en",
      first_name: "Chan",
      last_name: "Tai Man",
      email: "chan.taiman@example.com",
      phone: "+852 9123 4567",
      postal_code: null,
      country: "Hong Kong",
      notes: "Self-pickup",
      receipt_path: "receipts/x/r.webp",
    });

    // Stock: exactly what was bought, per colour; the colour not bought is untouched.
    expect(await stockOf(product.id, "Black")).toBe(7);
    expect(await stockOf(product.id, "Tan")).toBe(0);
    expect(await stockOf(product.id, "Grey")).toBe(7);
    expect(await stockOf(other.id, "Default")).toBe(28);

    const lines = await db
      .selectFrom("order_lines")
      .selectAll()
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(
      lines.map((l) => [l.product_id, l.name_en, l.color, l.unit_price_cents, l.quantity, l.line_total_cents]),
    ).toEqual([
      [product.id, product.name_en, "Black", 45_00, 3, 135_00],
      [product.id, product.name_en, "Tan", 45_00, 4, 180_00],
      [other.id, other.name_en, "Default", 8_00, 2, 16_00],
    ]);
    for (const line of lines) expect(line.line_total_cents).toBe(line.unit_price_cents * line.quantity);
    const subtotal = lines.reduce((sum, l) => sum + l.line_total_cents, 0);
    expect(order.subtotal_cents).toBe(subtotal);
    expect(order.shipping_cents).toBe(shippingFor(subtotal));
    expect(order.total_cents).toBe(order.subtotal_cents + order.shipping_cents);

    expect(await cartLines(shopper.cartId)).toEqual([]);

    // The lines are a snapshot: renaming or repricing the product later changes nothing.
    await db
      .updateTable("products")
      .set({ name_en: "Renamed", name_zh: "改名", price_hkd_cents: 1_00 })
      .where("id", "=", product.id)
      .execute();
    const after = await db
      .selectFrom("order_lines")
      .selectAll()
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(after.map((l) => [l.name_en, l.unit_price_cents])).toEqual([
      [product.name_en, 45_00],
      [product.name_en, 45_00],
      [other.name_en, 8_00],
    ]);
  });

  it.each<[Currency, number]>([
    ["HKD", 120_00],
    ["GBP", 11_99],
    ["EUR", 13_99],
    ["USD", 15_49],
  ])("charges the product prices in %s and records the currency", async (currency, unit) => {
    const product = await makeProduct({ hkd: 120_00, gbp: 11_99, eur: 13_99, usd: 15_49, variants: [["Black", 5]] });
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "2" });
    // A new shop's rule in each currency: the HKD one at the exchange rate (decision 041).
    const rule = DEFAULT_SHOP.shipping[currency];
    const cart = await loadCart(db, shopper.cartId, currency, rule);
    const { order } = await placeOrder(db, TEST_CONFIG, input(shopper, { currency }));
    expect(order.currency).toBe(currency);
    expect(order.subtotal_cents).toBe(unit * 2);
    expect(order.shipping_cents).toBe(shippingFor(unit * 2, rule));
    expect(order.total_cents).toBe(unit * 2 + shippingFor(unit * 2, rule));
    // What the cart showed is what the order charges.
    expect(order.total_cents).toBe(cart.totalCents);
    const [line] = await db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).execute();
    expect(line).toMatchObject({ unit_price_cents: unit, quantity: 2, line_total_cents: unit * 2 });
  });

  it("charges delivery under the owner's rule for the order's currency (Settings → Shop details)", async () => {
    const rules = {
      ...DEFAULT_SHOP.shipping,
      GBP: { feeCents: 4_50, freeAboveCents: 50_00 },
      USD: { feeCents: 12_00, freeAboveCents: null },
    };
    // Saved as the owner saves it: the rule is the default zone's (decision 047).
    await saveShopDetails(
      db,
      { ...DEFAULT_SHOP, shipping: rules, shippingFromHkd: { GBP: false, EUR: true, USD: false } },
      {
        actorUserId: null,
      },
    );
    try {
      const product = await makeProduct({ hkd: 300_00, gbp: 30_00, usd: 400_00, variants: [["Black", 9]] });
      const place = async (currency: Currency, quantity: string) => {
        const shopper = await makeShopper();
        await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity });
        const cart = await loadCart(db, shopper.cartId, currency, rules[currency]);
        const { order } = await placeOrder(db, TEST_CONFIG, input(shopper, { currency }));
        expect(order.total_cents, currency).toBe(cart.totalCents);
        return order;
      };
      expect((await place("GBP", "1")).shipping_cents).toBe(4_50); // £30: under £50
      expect((await place("GBP", "2")).shipping_cents).toBe(0); // £60: above £50
      expect((await place("USD", "2")).shipping_cents).toBe(12_00); // never free in USD
      expect((await place("HKD", "1")).shipping_cents).toBe(0); // HK$300: the default rule
    } finally {
      await saveShopDetails(db, DEFAULT_SHOP, { actorUserId: null });
      await db.deleteFrom("site_settings").where("key", "=", SHOP_DETAILS_KEY).execute();
    }
  });

  it("charges the database price at the time of the order, not the price when the item was added", async () => {
    // placeOrder has no price parameter at all: whatever a browser sends, prices come from the products.
    const product = await makeProduct({ hkd: 30_00, variants: [["Black", 5]] });
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "2" });
    expect((await loadCart(db, shopper.cartId, "HKD", DEFAULT_SHIPPING_RULE)).totalCents).toBe(70_00);

    await db.updateTable("products").set({ price_hkd_cents: 55_55 }).where("id", "=", product.id).execute();
    const { order } = await placeOrder(db, TEST_CONFIG, input(shopper));
    expect(order.subtotal_cents).toBe(111_10);
    expect(order.shipping_cents).toBe(0);
    expect(order.total_cents).toBe(111_10);
    const [line] = await db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).execute();
    expect(line).toMatchObject({ unit_price_cents: 55_55, line_total_cents: 111_10 });
  });

  it("makes one order for the same submission key (duplicate the second time)", async () => {
    const product = await makeProduct({ variants: [["Black", 10]] });
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "2" });
    const submissionKey = crypto.randomUUID();

    const first = await placeOrder(db, TEST_CONFIG, input(shopper, { submissionKey }));
    expect(first.duplicate).toBe(false);
    expect(await stockOf(product.id, "Black")).toBe(8);

    // The shopper fills the cart again; resending the same form must not buy it.
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "1" });
    const second = await placeOrder(db, TEST_CONFIG, input(shopper, { submissionKey }));
    expect(second.duplicate).toBe(true);
    expect(second.order.id).toBe(first.order.id);
    expect(second.order.order_number).toBe(first.order.order_number);
    expect(await ordersOf(shopper.userId)).toHaveLength(1);
    expect(await stockOf(product.id, "Black")).toBe(8);
    expect(await cartLines(shopper.cartId)).toEqual([{ product_id: product.id, color: "Black", quantity: 1 }]);
  });

  it("refuses an out-of-stock line and leaves stock, orders and the cart unchanged", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 5],
        ["Tan", 3],
      ],
    });
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "2" });
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Tan", quantity: "3" });
    // Someone else bought Tan meanwhile: one left.
    await db
      .updateTable("product_variants")
      .set({ stock: 1 })
      .where("product_id", "=", product.id)
      .where("color", "=", "Tan")
      .execute();
    const before = await cartLines(shopper.cartId);
    const ordersBefore = await db.selectFrom("orders").select("id").execute();

    const error = await orderError(() => placeOrder(db, TEST_CONFIG, input(shopper)));
    expect(error.key).toBe("checkout.errors.outOfStock");
    expect(error.params).toEqual({ name: product.name_en, color: "Tan", count: 1 });

    // The Black line, taken before Tan failed, was rolled back.
    expect(await stockOf(product.id, "Black")).toBe(5);
    expect(await stockOf(product.id, "Tan")).toBe(1);
    expect(await ordersOf(shopper.userId)).toEqual([]);
    expect(await db.selectFrom("orders").select("id").execute()).toEqual(ordersBefore);
    expect(await cartLines(shopper.cartId)).toEqual(before);
  });

  it("names the product in the shopper's language when refusing", async () => {
    const product = await makeProduct({ variants: [["Black", 1]] });
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "1" });
    await db.updateTable("product_variants").set({ stock: 0 }).where("product_id", "=", product.id).execute();
    const error = await orderError(() => placeOrder(db, TEST_CONFIG, input(shopper, { locale: "zh" })));
    expect(error.params).toEqual({ name: `${product.name_en}（中）`, color: "Black", count: 0 });
  });

  it("refuses an empty cart", async () => {
    const shopper = await makeShopper();
    const error = await orderError(() => placeOrder(db, TEST_CONFIG, input(shopper)));
    expect(error.key).toBe("checkout.errors.emptyCart");
    expect(await ordersOf(shopper.userId)).toEqual([]);
  });

  it("makes one order when the same checkout is sent three times at the same moment", async () => {
    const product = await makeProduct({ variants: [["Black", 10]] });
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "2" });
    const submissionKey = crypto.randomUUID();
    // On PostgreSQL each send runs on its own connection; the cart's row lock puts them in turn.
    const sends = await Promise.all(
      [1, 2, 3].map(() => placeOrder(db, TEST_CONFIG, input(shopper, { submissionKey }))),
    );
    expect(sends.filter((send) => !send.duplicate)).toHaveLength(1);
    expect(new Set(sends.map((send) => send.order.id)).size).toBe(1);
    expect(await ordersOf(shopper.userId)).toHaveLength(1);
    expect(await stockOf(product.id, "Black")).toBe(8);
  });

  it("sells the last unit once when 20 shoppers order it at the same moment", async () => {
    const product = await makeProduct({ variants: [["Black", 1]] });
    const shoppers = [];
    for (let i = 0; i < 20; i++) {
      const shopper = await makeShopper();
      await addToCart(db, shopper.cartId, { productId: product.id, color: "Black", quantity: "1" });
      shoppers.push(shopper);
    }

    const results = await Promise.allSettled(shoppers.map((shopper) => placeOrder(db, TEST_CONFIG, input(shopper))));
    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const { reason } of refused) {
      expect(reason).toBeInstanceOf(UserError);
      expect((reason as UserError).key).toBe("checkout.errors.outOfStock");
    }
    expect(await stockOf(product.id, "Black")).toBe(0);

    const orders = await db
      .selectFrom("orders")
      .innerJoin("order_lines", "order_lines.order_id", "orders.id")
      .select(["orders.id", "order_lines.quantity"])
      .where("order_lines.product_id", "=", product.id)
      .execute();
    expect(orders).toHaveLength(1);
    expect(orders[0]?.quantity).toBe(1);
    // Only the buyer's cart was emptied.
    const emptied = [];
    for (const shopper of shoppers) if ((await cartLines(shopper.cartId)).length === 0) emptied.push(shopper);
    expect(emptied).toHaveLength(1);
    const negative = await db.selectFrom("product_variants").select("id").where("stock", "<", 0).execute();
    expect(negative).toEqual([]);
  });
});

describe("checkoutSchema", () => {
  const valid = {
    firstName: "Chan",
    lastName: "Tai Man",
    email: "buyer@example.com",
    address: "1 Nathan Road",
    city: "Kowloon",
    country: "HK",
  };

  /** The error messages (translation keys) per field of a failed parse. */
  function errors(value: unknown): Record<string, string[]> {
    const result = checkoutSchema.safeParse(value);
    if (result.success) return {};
    const byField: Record<string, string[]> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? "");
      byField[field] = [...(byField[field] ?? []), issue.message];
    }
    return byField;
  }

  it("accepts the required fields alone; optional fields come back undefined", () => {
    const result = checkoutSchema.safeParse(valid);
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      ...valid,
      phone: undefined,
      postalCode: undefined,
      notes: undefined,
    });
  });

  it("trims values and turns empty optional fields into undefined", () => {
    const result = checkoutSchema.parse({
      ...valid,
      firstName: "  Chan  ",
      email: "  buyer@example.com ",
      phone: "",
      postalCode: "   ",
      notes: "",
    });
    expect(result.firstName).toBe("Chan");
    expect(result.email).toBe("buyer@example.com");
    expect(result.phone).toBeUndefined();
    expect(result.postalCode).toBeUndefined();
    expect(result.notes).toBeUndefined();
  });

  it("keeps filled optional fields", () => {
    const result = checkoutSchema.parse({
      ...valid,
      phone: "+852 9123-4567",
      postalCode: "SW1A 1AA",
      notes: "Ring twice",
    });
    expect(result).toMatchObject({ phone: "+852 9123-4567", postalCode: "SW1A 1AA", notes: "Ring twice" });
  });

  it.each(["firstName", "lastName", "address", "city", "country"] as const)("requires %s", (field) => {
    const { [field]: _omitted, ...missing } = valid;
    expect(errors(missing)[field]).toEqual(["checkout.errors.required"]);
    expect(errors({ ...valid, [field]: "" })[field]).toEqual(["checkout.errors.required"]);
    expect(errors({ ...valid, [field]: "   " })[field]).toEqual(["checkout.errors.required"]);
  });

  it("reads the country as an ISO code (or a country's name), refusing anything else (decision 047)", () => {
    expect(checkoutSchema.parse({ ...valid, country: "mo" }).country).toBe("MO");
    expect(checkoutSchema.parse({ ...valid, country: "Hong Kong" }).country).toBe("HK");
    expect(checkoutSchema.parse({ ...valid, country: "澳門" }).country).toBe("MO");
    for (const country of ["XX", "Atlantis", "a".repeat(101)]) {
      expect(errors({ ...valid, country }).country, country).toContain(
        country.length > 100 ? "checkout.errors.tooLong" : "checkout.errors.countryUnknown",
      );
    }
  });

  it("requires an e-mail address in a valid format", () => {
    const { email: _omitted, ...missing } = valid;
    expect(errors(missing).email).toEqual(["errors.emailRequired"]);
    for (const email of ["", "buyer", "buyer@example", "buyer@@example.com", "@example.com", "buyer example@x.com"]) {
      expect(errors({ ...valid, email }).email, email).toEqual(["errors.emailInvalid"]);
    }
  });

  it("checks the phone format", () => {
    for (const phone of ["+852 9123 4567", "91234567", "852 (0) 1234", "020 7946 0958", "+44-20-7946-0958"]) {
      expect(errors({ ...valid, phone }).phone, phone).toBeUndefined();
    }
    for (const phone of ["12345", "abc1234567", "9123 4567 ext", "+", "(852) 1234", "12345678x"]) {
      expect(errors({ ...valid, phone }).phone, phone).toEqual(["checkout.errors.phone"]);
    }
  });

  it.each([
    ["firstName", 100],
    ["lastName", 100],
    ["address", 300],
    ["city", 100],
    ["postalCode", 20],
    ["notes", 1000],
  ] as const)("limits %s to %i characters", (field, max) => {
    expect(errors({ ...valid, [field]: "a".repeat(max) })[field]).toBeUndefined();
    expect(errors({ ...valid, [field]: "a".repeat(max + 1) })[field]).toEqual(["checkout.errors.tooLong"]);
  });

  it("limits the phone to 40 characters and the e-mail to 254", () => {
    expect(errors({ ...valid, phone: `+${"1".repeat(39)}` }).phone).toBeUndefined();
    expect(errors({ ...valid, phone: `+${"1".repeat(40)}` }).phone).toContain("checkout.errors.tooLong");
    const local = "a".repeat(64);
    const long = `${local}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`;
    expect(long.length).toBeGreaterThan(254);
    expect(errors({ ...valid, email: long }).email).toContain("errors.emailTooLong");
  });

  it("drops fields it does not know (price, total, status, user_id)", () => {
    const result = checkoutSchema.safeParse({
      ...valid,
      price: "1",
      price_hkd_cents: 1,
      total: "0.01",
      total_cents: 1,
      status: "paid",
      user_id: "someone-else",
      submissionKey: "x",
    });
    expect(result.success).toBe(true);
    const known = ["address", "city", "country", "email", "firstName", "lastName", "notes", "phone", "postalCode"];
    for (const key of Object.keys(result.data ?? {})) expect(known).toContain(key);
    expect(result.data).toEqual({ ...valid, phone: undefined, postalCode: undefined, notes: undefined });
    for (const key of ["price", "price_hkd_cents", "total", "total_cents", "status", "user_id", "submissionKey"]) {
      expect(result.data).not.toHaveProperty(key);
    }
  });
});
