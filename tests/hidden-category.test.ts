import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { UserError } from "~/lib/problem";
import { DEFAULT_SHIPPING_RULE } from "~/lib/shipping";
import { buildSitemap } from "~/lib/sitemap.server";
import { addToCart, loadCart } from "~/models/cart.server";
import { placeOrder } from "~/models/orders/place.server";
import { listAdminProducts } from "~/models/products/admin-list.server";
import { listFeaturedProducts } from "~/models/products/cards.server";
import { countProducts, findProduct, listProducts, listRelatedProducts } from "~/models/products/catalog.server";
import { searchProducts } from "~/models/products/search.server";
import { createCategory, createProduct, createShopper, TEST_CONFIG } from "./factories";
import { createTestDb } from "./setup/db";

/**
 * Inactive means hidden from shoppers everywhere: a product whose category is inactive is in no
 * listing (All Products, New Arrivals, its category), not on the home page, not found by either
 * search, has no product page or sitemap entry, cannot be added to a cart, shows as unavailable
 * in a cart that already holds it, and cannot be ordered. A product without a category is shown.
 */

const { db } = await createTestDb();

async function makeCategory(slug: string, active: boolean): Promise<number> {
  const category = await createCategory(db, { slug, name_en: slug, name_zh: `${slug}（中）`, is_active: active });
  return category.id;
}

/** A featured product, new today, with one colour of 5, named so both searches find it. */
async function makeProduct(categoryId: number | null, label: string): Promise<number> {
  const product = await createProduct(db, {
    category_id: categoryId,
    name_en: `Zephyr ${label} Visor`,
    name_zh: `翡翠${label}護目鏡`,
    description_en: "x",
    description_zh: "x",
    price_hkd_cents: 100_00,
    price_gbp_cents: 10_00,
    price_eur_cents: 11_00,
    price_usd_cents: 13_00,
    is_featured: true,
    variants: [["Black", 5]],
  });
  return product.id;
}

async function makeShopper(): Promise<{ userId: string; cartId: string }> {
  const { userId, cartId } = await createShopper(db);
  return { userId, cartId };
}

async function setActive(categoryId: number, active: boolean) {
  await db
    .updateTable("categories")
    .set({ is_active: active ? 1 : 0 })
    .where("id", "=", categoryId)
    .execute();
}

let shownCategory: number;
let hiddenCategory: number;
let shown: number;
let hidden: number;
let uncategorised: number;

beforeAll(async () => {
  shownCategory = await makeCategory("optics-shown", true);
  hiddenCategory = await makeCategory("optics-hidden", false);
  shown = await makeProduct(shownCategory, "Shown");
  hidden = await makeProduct(hiddenCategory, "Hidden");
  uncategorised = await makeProduct(null, "Loose");
});

const ids = (products: { id: number }[]) => products.map((p) => p.id).sort((a, b) => a - b);

describe("a product of an inactive category is hidden from shoppers", () => {
  it("is in neither All Products nor New Arrivals; products without a category are", async () => {
    const all = await listProducts(db, { categoryId: null, sort: "featured", page: 1, currency: "HKD" });
    expect(ids(all.products)).toEqual([shown, hidden, uncategorised].filter((id) => id !== hidden).sort());
    expect(all.total).toBe(2);
    const fresh = await listProducts(db, {
      categoryId: null,
      newArrivals: true,
      sort: "newest",
      page: 1,
      currency: "GBP",
    });
    expect(ids(fresh.products)).not.toContain(hidden);
    expect(fresh.total).toBe(2);
    // Nor in its own category's listing, were anything to ask for it.
    expect(
      (await listProducts(db, { categoryId: hiddenCategory, sort: "featured", page: 1, currency: "HKD" })).total,
    ).toBe(0);
    expect(await countProducts(db)).toBe(2);
  });

  it("is not on the home page (featured)", async () => {
    expect(ids(await listFeaturedProducts(db, "HKD", 10))).toEqual([shown, uncategorised].sort((a, b) => a - b));
  });

  it("is found by neither the search page nor the search-as-you-type panel", async () => {
    for (const term of ["Zephyr", "zephyr hidden", "翡翠"]) {
      const page = await listProducts(db, {
        categoryId: null,
        search: term,
        sort: "featured",
        page: 1,
        currency: "HKD",
      });
      expect(ids(page.products), term).not.toContain(hidden);
      expect(ids(await searchProducts(db, term, "USD")), term).not.toContain(hidden);
    }
    expect(ids(await searchProducts(db, "Zephyr", "HKD"))).toEqual([shown, uncategorised].sort((a, b) => a - b));
  });

  it("has no product page (and no related products either)", async () => {
    expect(await findProduct(db, hidden, "HKD")).toBeNull();
    const visible = await findProduct(db, shown, "HKD");
    expect(visible?.id).toBe(shown);
    expect(await findProduct(db, uncategorised, "HKD")).not.toBeNull();
    if (visible) expect(ids(await listRelatedProducts(db, visible, "HKD"))).not.toContain(hidden);
  });

  it("is not in the sitemap", async () => {
    const xml = await buildSitemap(db, "https://shop.example.hk");
    expect(xml).toContain(`<loc>https://shop.example.hk/product/${shown}</loc>`);
    expect(xml).toContain(`<loc>https://shop.example.hk/product/${uncategorised}</loc>`);
    expect(xml).not.toContain(`/product/${hidden}<`);
  });

  it("cannot be added to a cart", async () => {
    const { cartId } = await makeShopper();
    await expect(addToCart(db, cartId, { productId: hidden, color: "Black", quantity: 1 })).rejects.toMatchObject({
      problem: { key: "cart.errors.noProduct" },
    });
    await expect(addToCart(db, cartId, { productId: hidden, color: "Black", quantity: 1 })).rejects.toBeInstanceOf(
      UserError,
    );
    expect((await loadCart(db, cartId, "HKD", DEFAULT_SHIPPING_RULE)).lines).toEqual([]);
  });

  it("is still in the admin's product list, marked as hidden", async () => {
    const { products } = await listAdminProducts(db, { currency: "HKD", language: "en", search: "Zephyr" });
    expect(products.map((p) => [p.id, p.hidden_from_shoppers]).sort()).toEqual(
      [
        [shown, false],
        [hidden, true],
        [uncategorised, false],
      ].sort(),
    );
  });

  it("already in a cart: shown as unavailable, not counted, and the order is refused", async () => {
    await setActive(hiddenCategory, true);
    const shopper = await makeShopper();
    await addToCart(db, shopper.cartId, { productId: shown, color: "Black", quantity: 1 });
    await addToCart(db, shopper.cartId, { productId: hidden, color: "Black", quantity: 2 });
    await setActive(hiddenCategory, false);

    const cart = await loadCart(db, shopper.cartId, "HKD", DEFAULT_SHIPPING_RULE);
    expect(cart.lines.map((line) => [line.productId, line.available])).toEqual([
      [shown, true],
      [hidden, false],
    ]);
    expect(cart.unavailable).toBe(true);
    expect(cart.subtotalCents).toBe(100_00);

    let refused: unknown = null;
    try {
      await placeOrder(db, TEST_CONFIG, {
        ...shopper,
        currency: "HKD",
        locale: "en",
        customer: {
          firstName: "Chan",
          lastName: "Tai Man",
          email: "chan@example.com",
          phone: undefined,
          address: "1 Nathan Road",
          city: "Tsim Sha Tsui",
          postalCode: undefined,
          country: "Hong Kong",
          notes: undefined,
        },
        receiptPath: "receipts/x.jpg",
        submissionKey: crypto.randomUUID(),
      });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UserError);
    expect(refused).toMatchObject({ key: "checkout.errors.unavailable", params: { name: "Zephyr Hidden Visor" } });
    // Nothing taken, nothing placed, the cart as it was.
    const stock = await db
      .selectFrom("product_variants")
      .select(["product_id", "stock"])
      .where("product_id", "in", [shown, hidden])
      .orderBy("product_id")
      .execute();
    expect(stock.map((row) => row.stock)).toEqual([5, 5]);
    expect(await db.selectFrom("orders").select("id").where("user_id", "=", shopper.userId).execute()).toEqual([]);
    expect((await loadCart(db, shopper.cartId, "HKD", DEFAULT_SHIPPING_RULE)).lines).toHaveLength(2);

    // Active again: the product is back everywhere and in the cart.
    await setActive(hiddenCategory, true);
    expect(await findProduct(db, hidden, "HKD")).not.toBeNull();
    expect((await loadCart(db, shopper.cartId, "HKD", DEFAULT_SHIPPING_RULE)).unavailable).toBe(false);
    await setActive(hiddenCategory, false);
  });
});
