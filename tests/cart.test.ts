import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { type Problem, UserError } from "~/lib/problem";
import { DEFAULT_SHIPPING_RULE, shippingFor } from "~/lib/shipping";
import {
  addToCart,
  cartIdForUser,
  clearCart,
  countCartLines,
  createAnonymousCart,
  findAnonymousCart,
  loadCart,
  mergeCarts,
  removeLine,
  setLineQuantity,
} from "~/models/cart.server";
import { DEFAULT_COLOR } from "~/schemas/product";
import { createCustomer, createProduct } from "./factories";
import { freshTestDb } from "./setup/db";

/**
 * The server-side cart against a real, migrated SQLite file: products and colours are inserted
 * here, so every stock and price below is known.
 */

let db: DB;
beforeEach(async () => {
  ({ db } = await freshTestDb());
});

interface ProductSpec {
  hkd?: number;
  gbp?: number;
  eur?: number;
  usd?: number;
  variants: [string, number][];
}

/** A product with its colours (prices in cents); returns its id. */
async function makeProduct(spec: ProductSpec): Promise<number> {
  const product = await createProduct(db, {
    name_zh: "測試產品",
    price_hkd_cents: spec.hkd ?? 50_00,
    price_gbp_cents: spec.gbp ?? 5_99,
    price_eur_cents: spec.eur ?? 6_99,
    price_usd_cents: spec.usd ?? 7_99,
    variants: spec.variants,
  });
  return product.id;
}

async function makeUser(): Promise<string> {
  return (await createCustomer(db)).id;
}

async function setStock(productId: number, color: string, stock: number) {
  await db
    .updateTable("product_variants")
    .set({ stock })
    .where("product_id", "=", productId)
    .where("color", "=", color)
    .execute();
}

async function lines(cartId: string) {
  return db
    .selectFrom("cart_lines")
    .select(["id", "product_id", "color", "quantity"])
    .where("cart_id", "=", cartId)
    .orderBy("id")
    .execute();
}

/** Runs `action` and returns the problem of the UserError it throws (failing when it does not throw one). */
async function cartError(action: () => Promise<unknown>): Promise<Problem> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).problem;
  }
  throw new Error("expected a UserError, nothing was thrown");
}

let cart: string;
beforeEach(async () => {
  cart = await createAnonymousCart(db);
});

describe("shippingFor", () => {
  it("is nothing for an empty cart", () => {
    expect(shippingFor(0)).toBe(0);
  });

  it("is 10.00 up to and including 100.00", () => {
    expect(DEFAULT_SHIPPING_RULE).toEqual({ feeCents: 1000, freeAboveCents: 10000 });
    expect(shippingFor(1)).toBe(1000);
    expect(shippingFor(5000)).toBe(1000);
    expect(shippingFor(9999)).toBe(1000);
    expect(shippingFor(10000)).toBe(1000);
  });

  it("is free above 100.00", () => {
    expect(shippingFor(10001)).toBe(0);
    expect(shippingFor(250000)).toBe(0);
  });

  it("follows the shop's rule for the currency: its fee, its threshold, or never free", () => {
    const rule = { feeCents: 45_00, freeAboveCents: 800_00 };
    expect(shippingFor(800_00, rule)).toBe(45_00);
    expect(shippingFor(800_01, rule)).toBe(0);
    expect(shippingFor(5_000_00, { feeCents: 12_50, freeAboveCents: null })).toBe(12_50);
    expect(shippingFor(0, { feeCents: 12_50, freeAboveCents: null })).toBe(0);
  });
});

describe("addToCart", () => {
  it("adds a line with the product, colour and quantity", async () => {
    const product = await makeProduct({ variants: [["Black", 5]] });
    const added = await addToCart(db, cart, { productId: product, color: "Black", quantity: "2" });
    expect(added).toMatchObject({ color: "Black", quantity: 2, name_zh: "測試產品" });
    expect(await lines(cart)).toEqual([expect.objectContaining({ product_id: product, color: "Black", quantity: 2 })]);
    expect(await countCartLines(db, cart)).toBe(1);
  });

  it("adds the same product and colour to its line; another colour gets its own line", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 5],
        ["Tan", 5],
      ],
    });
    await addToCart(db, cart, { productId: String(product), color: "Black", quantity: "1" });
    await addToCart(db, cart, { productId: String(product), color: "Black", quantity: "3" });
    await addToCart(db, cart, { productId: String(product), color: "Tan", quantity: "1" });
    expect((await lines(cart)).map((l) => [l.color, l.quantity])).toEqual([
      ["Black", 4],
      ["Tan", 1],
    ]);
  });

  it("takes a missing quantity as 1", async () => {
    const product = await makeProduct({ variants: [["Black", 5]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: undefined });
    expect((await lines(cart))[0]?.quantity).toBe(1);
  });

  it("takes a missing or blank colour as Default", async () => {
    const product = await makeProduct({ variants: [[DEFAULT_COLOR, 3]] });
    await addToCart(db, cart, { productId: product, color: undefined, quantity: "1" });
    await addToCart(db, cart, { productId: product, color: "   ", quantity: "1" });
    expect((await lines(cart)).map((l) => [l.color, l.quantity])).toEqual([["Default", 2]]);
  });

  it("refuses a missing colour when the product has no Default colour", async () => {
    const product = await makeProduct({ variants: [["Black", 3]] });
    const error = await cartError(() => addToCart(db, cart, { productId: product, color: null, quantity: "1" }));
    expect(error.key).toBe("cart.errors.noProduct");
    expect(await lines(cart)).toEqual([]);
  });

  it("refuses more than the colour's stock", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 3],
        ["Tan", 10],
      ],
    });
    const error = await cartError(() => addToCart(db, cart, { productId: product, color: "Black", quantity: "4" }));
    expect(error.key).toBe("cart.errors.insufficientStock");
    expect(error.detailKey).toBe("cart.errors.insufficientStockDetail");
    expect(error.params).toEqual({ count: 3, color: "Black" });
    expect(await lines(cart)).toEqual([]);
    // Exactly the stock is fine.
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "3" });
    expect((await lines(cart))[0]?.quantity).toBe(3);
  });

  it("refuses when what is in the cart plus the new quantity exceeds the stock", async () => {
    const product = await makeProduct({ variants: [["Black", 5]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "3" });
    const error = await cartError(() => addToCart(db, cart, { productId: product, color: "Black", quantity: "3" }));
    expect(error.key).toBe("cart.errors.insufficientStock");
    expect(error.detailKey).toBe("cart.errors.alreadyInCart");
    expect(error.params).toEqual({ count: 3, inCart: 3, stock: 5 });
    expect((await lines(cart))[0]?.quantity).toBe(3);
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "2" });
    expect((await lines(cart))[0]?.quantity).toBe(5);
  });

  it.each([
    ["-1", -1],
    ["0", 0],
    ["1.5", 1.5],
    ["abc", "abc"],
    ["1e9", 1e9],
    ["the text 1e9", "1e9"],
    ["an empty string", ""],
    ["1000 (above the line limit)", "1000"],
  ])("refuses the quantity %s", async (_label, quantity) => {
    const product = await makeProduct({ variants: [["Black", 5000]] });
    const error = await cartError(() => addToCart(db, cart, { productId: product, color: "Black", quantity }));
    expect(error.key).toBe("cart.errors.badQuantity");
    expect(await lines(cart)).toEqual([]);
  });

  it("stops repeated adds at the line limit of 999", async () => {
    const product = await makeProduct({ variants: [["Black", 5000]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "999" });
    const error = await cartError(() => addToCart(db, cart, { productId: product, color: "Black", quantity: "1" }));
    expect(error.key).toBe("cart.errors.badQuantity");
    expect((await lines(cart))[0]?.quantity).toBe(999);
  });

  it("refuses a colour of another product", async () => {
    const mine = await makeProduct({ variants: [["Black", 5]] });
    await makeProduct({ variants: [["Pink", 5]] });
    const error = await cartError(() => addToCart(db, cart, { productId: mine, color: "Pink", quantity: "1" }));
    expect(error.key).toBe("cart.errors.noProduct");
    expect(await lines(cart)).toEqual([]);
  });

  it("refuses a deleted product, an unknown id and a malformed id", async () => {
    const product = await makeProduct({ variants: [["Black", 5]] });
    await db.deleteFrom("products").where("id", "=", product).execute();
    for (const productId of [product, 99_999_999, "abc", "-3", "1.5", undefined]) {
      const error = await cartError(() => addToCart(db, cart, { productId, color: "Black", quantity: "1" }));
      expect(error.key, String(productId)).toBe("cart.errors.noProduct");
    }
    expect(await lines(cart)).toEqual([]);
  });
});

describe("setLineQuantity", () => {
  it("sets the quantity of a line", async () => {
    const product = await makeProduct({ variants: [["Black", 6]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "1" });
    const [line] = await lines(cart);
    expect(await setLineQuantity(db, cart, String(line?.id), "6")).toBe(true);
    expect((await lines(cart))[0]?.quantity).toBe(6);
  });

  it("ignores quantities below 1 and unreadable ones", async () => {
    const product = await makeProduct({ variants: [["Black", 6]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "2" });
    const [line] = await lines(cart);
    for (const quantity of ["0", "-1", "", "abc", "1.5"]) {
      expect(await setLineQuantity(db, cart, line?.id, quantity), quantity).toBe(false);
    }
    expect((await lines(cart))[0]?.quantity).toBe(2);
  });

  it("refuses more than the colour's stock", async () => {
    const product = await makeProduct({ variants: [["Black", 4]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "2" });
    const [line] = await lines(cart);
    const error = await cartError(() => setLineQuantity(db, cart, line?.id, "5"));
    expect(error.key).toBe("cart.errors.quantityOverStock");
    expect(error.params).toEqual({ count: 4 });
    expect((await lines(cart))[0]?.quantity).toBe(2);
  });

  it("refuses a line of another cart", async () => {
    const product = await makeProduct({ variants: [["Black", 4]] });
    const other = await createAnonymousCart(db);
    await addToCart(db, other, { productId: product, color: "Black", quantity: "1" });
    const [theirs] = await lines(other);
    const error = await cartError(() => setLineQuantity(db, cart, theirs?.id, "3"));
    expect(error.key).toBe("cart.errors.noLine");
    expect((await lines(other))[0]?.quantity).toBe(1);
    expect((await cartError(() => setLineQuantity(db, cart, "not-a-number", "1"))).key).toBe("cart.errors.noLine");
  });
});

describe("removeLine and clearCart", () => {
  it("removes one line and reports what it was", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 4],
        ["Tan", 4],
      ],
    });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "1" });
    await addToCart(db, cart, { productId: product, color: "Tan", quantity: "1" });
    const [black] = await lines(cart);
    const removed = await removeLine(db, cart, String(black?.id));
    expect(removed).toMatchObject({ color: "Black", name_zh: "測試產品" });
    expect((await lines(cart)).map((l) => l.color)).toEqual(["Tan"]);
  });

  it("refuses to remove a line of another cart", async () => {
    const product = await makeProduct({ variants: [["Black", 4]] });
    const other = await createAnonymousCart(db);
    await addToCart(db, other, { productId: product, color: "Black", quantity: "1" });
    const [theirs] = await lines(other);
    expect((await cartError(() => removeLine(db, cart, theirs?.id))).key).toBe("cart.errors.noLine");
    expect(await lines(other)).toHaveLength(1);
  });

  it("clears only this cart", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 4],
        ["Tan", 4],
      ],
    });
    const other = await createAnonymousCart(db);
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "1" });
    await addToCart(db, cart, { productId: product, color: "Tan", quantity: "1" });
    await addToCart(db, other, { productId: product, color: "Black", quantity: "1" });
    await clearCart(db, cart);
    expect(await lines(cart)).toEqual([]);
    expect(await countCartLines(db, cart)).toBe(0);
    expect(await lines(other)).toHaveLength(1);
  });
});

describe("loadCart", () => {
  it("is empty without a cart", async () => {
    const empty = await loadCart(db, null, "HKD", DEFAULT_SHIPPING_RULE);
    expect(empty).toMatchObject({ lines: [], subtotalCents: 0, shippingCents: 0, totalCents: 0, overStock: false });
  });

  it.each<[Currency, number, number]>([
    ["HKD", 380_00, 12_00],
    ["GBP", 37_99, 1_99],
    ["EUR", 44_99, 2_49],
    ["USD", 48_99, 2_79],
  ])("prices every line from the products in %s", async (currency, unitA, unitB) => {
    const a = await makeProduct({ hkd: 380_00, gbp: 37_99, eur: 44_99, usd: 48_99, variants: [["Black", 9]] });
    const b = await makeProduct({ hkd: 12_00, gbp: 1_99, eur: 2_49, usd: 2_79, variants: [[DEFAULT_COLOR, 9]] });
    await addToCart(db, cart, { productId: a, color: "Black", quantity: "2" });
    await addToCart(db, cart, { productId: b, color: undefined, quantity: "3" });
    const loaded = await loadCart(db, cart, currency, DEFAULT_SHIPPING_RULE);
    expect(loaded.currency).toBe(currency);
    expect(loaded.lines.map((l) => [l.productId, l.color, l.quantity, l.unitPriceCents, l.lineTotalCents])).toEqual([
      [a, "Black", 2, unitA, unitA * 2],
      [b, "Default", 3, unitB, unitB * 3],
    ]);
    const subtotal = unitA * 2 + unitB * 3;
    expect(loaded.subtotalCents).toBe(subtotal);
    expect(loaded.shippingCents).toBe(shippingFor(subtotal));
    expect(loaded.totalCents).toBe(loaded.subtotalCents + loaded.shippingCents);
    expect(loaded.lines.reduce((sum, l) => sum + l.lineTotalCents, 0)).toBe(loaded.subtotalCents);
  });

  it("follows the product's price: a changed price changes the cart", async () => {
    const product = await makeProduct({ hkd: 40_00, variants: [["Black", 9]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "2" });
    const before = await loadCart(db, cart, "HKD", DEFAULT_SHIPPING_RULE);
    expect(before).toMatchObject({ subtotalCents: 80_00, shippingCents: 10_00, totalCents: 90_00 });
    await db.updateTable("products").set({ price_hkd_cents: 75_00 }).where("id", "=", product).execute();
    const after = await loadCart(db, cart, "HKD", DEFAULT_SHIPPING_RULE);
    expect(after.lines[0]).toMatchObject({ unitPriceCents: 75_00, lineTotalCents: 150_00 });
    // Above 100.00 now: shipping becomes free.
    expect(after).toMatchObject({ subtotalCents: 150_00, shippingCents: 0, totalCents: 150_00 });
  });

  it("charges shipping at exactly 100.00 and none just above", async () => {
    const product = await makeProduct({ hkd: 50_00, variants: [["Black", 9]] });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "2" });
    expect(await loadCart(db, cart, "HKD", DEFAULT_SHIPPING_RULE)).toMatchObject({
      subtotalCents: 100_00,
      shippingCents: 10_00,
    });
    await db.updateTable("products").set({ price_hkd_cents: 50_01 }).where("id", "=", product).execute();
    expect(await loadCart(db, cart, "HKD", DEFAULT_SHIPPING_RULE)).toMatchObject({
      subtotalCents: 100_02,
      shippingCents: 0,
    });
  });

  it("flags lines asking for more than is in stock now", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 5],
        ["Tan", 5],
      ],
    });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "4" });
    await addToCart(db, cart, { productId: product, color: "Tan", quantity: "1" });
    expect((await loadCart(db, cart, "HKD", DEFAULT_SHIPPING_RULE)).overStock).toBe(false);
    await setStock(product, "Black", 3);
    const loaded = await loadCart(db, cart, "HKD", DEFAULT_SHIPPING_RULE);
    expect(loaded.overStock).toBe(true);
    expect(loaded.lines.map((l) => [l.color, l.quantity, l.stock])).toEqual([
      ["Black", 4, 3],
      ["Tan", 1, 5],
    ]);
    await setStock(product, "Black", 4);
    expect((await loadCart(db, cart, "HKD", DEFAULT_SHIPPING_RULE)).overStock).toBe(false);
  });
});

describe("mergeCarts", () => {
  it("sums quantities, adds new lines and deletes the anonymous cart", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 10],
        ["Tan", 10],
      ],
    });
    const user = await makeUser();
    const userCart = await cartIdForUser(db, user);
    await addToCart(db, userCart, { productId: product, color: "Black", quantity: "2" });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "3" });
    await addToCart(db, cart, { productId: product, color: "Tan", quantity: "1" });

    expect(await mergeCarts(db, cart, user)).toEqual({ merged: 2, capped: 0 });
    expect((await lines(userCart)).map((l) => [l.color, l.quantity])).toEqual([
      ["Black", 5],
      ["Tan", 1],
    ]);
    expect(await findAnonymousCart(db, cart)).toBeNull();
    expect(await db.selectFrom("carts").select("id").where("id", "=", cart).executeTakeFirst()).toBeUndefined();
    expect(await lines(cart)).toEqual([]);
  });

  it("caps summed quantities at the stock and reports how many lines were capped", async () => {
    const product = await makeProduct({
      variants: [
        ["Black", 4],
        ["Tan", 3],
        ["Grey", 9],
      ],
    });
    const user = await makeUser();
    const userCart = await cartIdForUser(db, user);
    await addToCart(db, userCart, { productId: product, color: "Black", quantity: "3" });
    await addToCart(db, userCart, { productId: product, color: "Tan", quantity: "2" });
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "3" });
    await addToCart(db, cart, { productId: product, color: "Tan", quantity: "2" });
    await addToCart(db, cart, { productId: product, color: "Grey", quantity: "1" });

    expect(await mergeCarts(db, cart, user)).toEqual({ merged: 3, capped: 2 });
    expect((await lines(userCart)).map((l) => [l.color, l.quantity])).toEqual([
      ["Black", 4],
      ["Tan", 3],
      ["Grey", 1],
    ]);
    expect(await findAnonymousCart(db, cart)).toBeNull();
  });

  it("creates the user's cart when there is none yet", async () => {
    const product = await makeProduct({ variants: [["Black", 4]] });
    const user = await makeUser();
    await addToCart(db, cart, { productId: product, color: "Black", quantity: "2" });
    expect(await mergeCarts(db, cart, user)).toEqual({ merged: 1, capped: 0 });
    const userCart = await cartIdForUser(db, user);
    expect(userCart).not.toBe(cart);
    expect((await lines(userCart)).map((l) => l.quantity)).toEqual([2]);
  });
});
