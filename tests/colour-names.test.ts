import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { colorName } from "~/lib/localize";
import { UserError } from "~/lib/problem";
import { DEFAULT_SHIPPING_RULE } from "~/lib/shipping";
import { addToCart, loadCart } from "~/models/cart.server";
import { placeOrder } from "~/models/orders/place.server";
import { findProduct, listProducts } from "~/models/products/catalog.server";
import { createProduct, createShopper, TEST_CONFIG, uniqueTag } from "./factories";
import { freshTestDb } from "./setup/db";
import { queuedEmails } from "./setup/outbox";

/**
 * Colours have a Chinese name (product_variants.color_zh; none: the English name is shown).
 * Shoppers reading Chinese see it on cards, the product page, the cart and their e-mails; the
 * cart keys on the English name; an order line keeps both names as they were when it was placed.
 */

let db: DB;
beforeEach(async () => {
  ({ db } = await freshTestDb());
});

async function makeProduct(variants: [color: string, zh: string | null, stock: number][]): Promise<number> {
  const product = await createProduct(db, {
    name_en: `Colour test ${uniqueTag()}`,
    name_zh: "顏色測試",
    description_en: "x",
    description_zh: "x",
    price_hkd_cents: 50_00,
    price_gbp_cents: 5_00,
    price_eur_cents: 6_00,
    price_usd_cents: 7_00,
    variants,
  });
  return product.id;
}

async function makeShopper() {
  const { userId, cartId } = await createShopper(db);
  return { userId, cartId };
}

const CUSTOMER = {
  firstName: "大文",
  lastName: "陳",
  email: "chan@example.com",
  phone: undefined,
  address: "彌敦道 1 號",
  city: "尖沙咀",
  postalCode: undefined,
  country: "香港",
  notes: undefined,
};

describe("colorName", () => {
  it("is the Chinese name on Chinese pages when there is one, else the English name", () => {
    expect(colorName({ color: "Black", color_zh: "黑色" }, "zh")).toBe("黑色");
    expect(colorName({ color: "Black", color_zh: "黑色" }, "en")).toBe("Black");
    expect(colorName({ color: "Sand Storm", color_zh: null }, "zh")).toBe("Sand Storm");
    expect(colorName({ color: "Sand Storm", color_zh: "" }, "zh")).toBe("Sand Storm");
    expect(colorName({ color: "Sand Storm" }, "zh")).toBe("Sand Storm");
  });
});

describe("the catalogue and the cart carry both names", () => {
  it("cards and the product page", async () => {
    const id = await makeProduct([
      ["Black", "黑色", 3],
      ["Sand Storm", null, 2],
    ]);
    const page = await findProduct(db, id, "HKD");
    expect(page?.variants).toMatchObject([
      { color: "Black", color_zh: "黑色", stock: 3 },
      { color: "Sand Storm", color_zh: null, stock: 2 },
    ]);
    const { products } = await listProducts(db, { categoryId: null, sort: "newest", page: 1, currency: "HKD" });
    expect(products.find((card) => card.id === id)?.colors).toEqual(
      page?.variants.map(({ color, color_zh, stock }) => ({ color, color_zh, stock })),
    );
  });

  it("cart lines keep the English name as their key and bring the Chinese one", async () => {
    const id = await makeProduct([["Olive Drab", "橄欖綠", 4]]);
    const { cartId } = await makeShopper();
    // The form sends the English name; the line is found by it.
    await addToCart(db, cartId, { productId: id, color: "Olive Drab", quantity: 1 });
    await addToCart(db, cartId, { productId: id, color: "Olive Drab", quantity: 1 });
    const cart = await loadCart(db, cartId, "HKD", DEFAULT_SHIPPING_RULE);
    expect(cart.lines.map((line) => [line.color, line.color_zh, line.quantity])).toEqual([["Olive Drab", "橄欖綠", 2]]);
    // A Chinese name is not a colour of the product.
    await expect(addToCart(db, cartId, { productId: id, color: "橄欖綠", quantity: 1 })).rejects.toBeInstanceOf(
      UserError,
    );
    // A refusal names the colour in both languages (the page shows the reader's).
    await expect(addToCart(db, cartId, { productId: id, color: "Olive Drab", quantity: 9 })).rejects.toMatchObject({
      problem: { key: "cart.errors.insufficientStock", params: { color: "Olive Drab", color_zh: "橄欖綠", count: 4 } },
    });
  });
});

describe("orders", () => {
  it("snapshot the Chinese colour name into the order line", async () => {
    const id = await makeProduct([
      ["Black", "黑色", 5],
      ["Sand Storm", null, 5],
    ]);
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: id, color: "Black", quantity: 1 });
    await addToCart(db, shopper.cartId, { productId: id, color: "Sand Storm", quantity: 1 });
    const { order } = await placeOrder(db, TEST_CONFIG, {
      ...shopper,
      currency: "HKD",
      locale: "zh",
      customer: CUSTOMER,
      receiptPath: "receipts/x.jpg",
      submissionKey: crypto.randomUUID(),
    });
    const lines = await db
      .selectFrom("order_lines")
      .select(["color", "color_zh"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(lines).toEqual([
      { color: "Black", color_zh: "黑色" },
      { color: "Sand Storm", color_zh: null },
    ]);
    // A later rename of the colour does not change what was ordered.
    await db.updateTable("product_variants").set({ color_zh: "純黑" }).where("product_id", "=", id).execute();
    const kept = await db
      .selectFrom("order_lines")
      .select("color_zh")
      .where("order_id", "=", order.id)
      .where("color", "=", "Black")
      .executeTakeFirstOrThrow();
    expect(kept.color_zh).toBe("黑色");
  });

  it("name the colour in the shopper's language when its stock ran out", async () => {
    const id = await makeProduct([["Tan", "沙色", 2]]);
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: id, color: "Tan", quantity: 2 });
    await db.updateTable("product_variants").set({ stock: 1 }).where("product_id", "=", id).execute();
    const refused = await placeOrder(db, TEST_CONFIG, {
      ...shopper,
      currency: "HKD",
      locale: "zh",
      customer: CUSTOMER,
      receiptPath: "receipts/x.jpg",
      submissionKey: crypto.randomUUID(),
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UserError);
    expect(refused).toMatchObject({ key: "checkout.errors.outOfStock", params: { color: "沙色", count: 1 } });
  });

  it("e-mail the Chinese colour name to a Chinese order, the English one to an English order", async () => {
    const id = await makeProduct([["Coyote Brown", "狼棕色", 9]]);
    const orderIds: string[] = [];
    for (const locale of ["zh", "en"] as const) {
      const shopper = await makeShopper();
      await addToCart(db, shopper.cartId, { productId: id, color: "Coyote Brown", quantity: 1 });
      const { order } = await placeOrder(db, TEST_CONFIG, {
        ...shopper,
        currency: "HKD",
        locale,
        customer: { ...CUSTOMER, email: `${locale}@example.com` },
        receiptPath: "receipts/x.jpg",
        submissionKey: crypto.randomUUID(),
      });
      orderIds.push(order.id);
    }
    const [zh, en] = await Promise.all(
      orderIds.map(async (orderId) => (await queuedEmails(db, { orderId, event: "order.placed" }))[0]),
    );
    expect(zh?.text).toContain("顏色測試 (狼棕色) × 1");
    expect(zh?.html).toContain("狼棕色");
    expect(en?.text).toContain("(Coyote Brown) × 1");
    expect(en?.text).not.toContain("狼棕色");
  });
});
