import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { UserError } from "~/lib/problem";
import { DEFAULT_SHIPPING_RULE } from "~/lib/shipping";
import { productJsonLd } from "~/lib/structured-data.server";
import { addToCart, cartIdForUser, loadCart } from "~/models/cart.server";
import { placeOrder } from "~/models/orders/place.server";
import { findProduct, listProducts } from "~/models/products/catalog.server";
import { applyProductImport, planProductImport, productCsvRecords } from "~/models/products/csv.server";
import { clearEndedSales, nextSaleEnd } from "~/models/products/sale-prices.server";
import type { CheckoutInput } from "~/schemas/checkout";
import { createCustomer, createProduct, TEST_CONFIG } from "./factories";
import { freshTestDb } from "./setup/db";

/**
 * Sale prices (issue 28 item 3, docs/decisions/053): the price in effect at a moment is used
 * everywhere the shopper pays, and returns by itself at the sale's end with nothing written.
 */

let db: DB;
beforeEach(async () => {
  ({ db } = await freshTestDb());
});

const END = new Date("2099-12-01T10:00:00.000Z");
const BEFORE = new Date(END.getTime() - 1000);
const AFTER = new Date(END.getTime() + 1000);

async function saleProduct(endsAt: string | null = END.toISOString()) {
  return createProduct(db, {
    price_hkd_cents: 500_00,
    price_gbp_cents: null,
    price_eur_cents: null,
    price_usd_cents: null,
    sale: {
      price_hkd_cents: 450_00,
      price_gbp_cents: null,
      price_eur_cents: null,
      price_usd_cents: null,
      ends_at: endsAt,
    },
  });
}

describe("sale prices", () => {
  it("pays the sale price until the end and the regular price a second after, in listing, page, cart and order", async () => {
    const product = await saleProduct();
    const cheap = await createProduct(db, { price_hkd_cents: 470_00 });
    const list = (at: Date) =>
      listProducts(db, { categoryId: null, sort: "price-low-high", page: 1, currency: "HKD", at });

    const during = await list(BEFORE);
    expect(during.products.map((p) => p.id)).toEqual([product.id, cheap.id]);
    expect(during.products[0]).toMatchObject({ price_cents: 450_00, regular_price_cents: 500_00 });
    const after = await list(AFTER);
    // Sorted by the price paid now: the ended sale sorts at its regular price (read apart, merged in).
    expect(after.products.map((p) => p.id)).toEqual([cheap.id, product.id]);
    expect(after.products[1]).toMatchObject({ price_cents: 500_00, regular_price_cents: 500_00 });

    // A price band: under HK$480 holds the sale product during the sale only.
    const band = async (at: Date) =>
      (await listProducts(db, { categoryId: null, sort: "featured", price: "mid", page: 1, currency: "HKD", at }))
        .total;
    expect(await band(BEFORE)).toBe(2);
    const sale = (at: Date) =>
      listProducts(db, { categoryId: null, onSale: true, sort: "featured", page: 1, currency: "HKD", at });
    expect((await sale(BEFORE)).products.map((p) => p.id)).toEqual([product.id]);
    expect((await sale(AFTER)).products).toEqual([]);

    expect((await findProduct(db, product.id, "HKD", BEFORE))?.price_cents).toBe(450_00);
    expect((await findProduct(db, product.id, "HKD", AFTER))?.price_cents).toBe(500_00);
    // Structured data: each variant's offer is the sale price in the shopper's currency (here GBP,
    // derived), valid until the sale's end, with the regular price struck through (decision 056).
    const page = await findProduct(db, product.id, "GBP", BEFORE);
    expect(page && productJsonLd(page, "http://localhost:3000", "en").hasVariant[0]?.offers).toMatchObject({
      priceCurrency: "GBP",
      price: "45.00",
      priceValidUntil: END.toISOString(),
      priceSpecification: { priceType: "https://schema.org/StrikethroughPrice", price: "50.00" },
    });
    // Derived from HKD at the shop's rate (0.1 GBP per HKD by default).
    expect((await findProduct(db, product.id, "GBP", BEFORE))?.price_cents).toBe(45_00);

    const user = await createCustomer(db);
    const cartId = await cartIdForUser(db, user.id);
    await addToCart(db, cartId, { productId: product.id, color: "Black", quantity: 2 });
    const cart = (at: Date) => loadCart(db, cartId, "HKD", DEFAULT_SHIPPING_RULE, undefined, at);
    expect((await cart(BEFORE)).subtotalCents).toBe(900_00);
    expect((await cart(AFTER)).subtotalCents).toBe(1000_00);

    const { order } = await placeOrder(db, TEST_CONFIG, {
      userId: user.id,
      cartId,
      currency: "HKD",
      locale: "en",
      customer: {
        firstName: "Chan",
        lastName: "Tai Man",
        email: user.email,
        address: "1 Nathan Road",
        city: "Kowloon",
        country: "Hong Kong",
      } as CheckoutInput,
      receiptPath: null,
      submissionKey: crypto.randomUUID(),
      at: AFTER,
    });
    expect(order.subtotal_cents).toBe(1000_00);
  });

  it("charges the sale price at placement while the sale lasts", async () => {
    const product = await saleProduct(null);
    const user = await createCustomer(db);
    const cartId = await cartIdForUser(db, user.id);
    await addToCart(db, cartId, { productId: product.id, color: "Black", quantity: 1 });
    const { order } = await placeOrder(db, TEST_CONFIG, {
      userId: user.id,
      cartId,
      currency: "HKD",
      locale: "en",
      customer: {
        firstName: "Chan",
        lastName: "Tai Man",
        email: user.email,
        address: "1 Nathan Road",
        city: "Kowloon",
        country: "Hong Kong",
      } as CheckoutInput,
      receiptPath: null,
      submissionKey: crypto.randomUUID(),
    });
    expect(order.subtotal_cents).toBe(450_00);
  });

  it("refuses a sale price not below the regular one, at its field", async () => {
    const refused = await createProduct(db, {
      price_hkd_cents: 100_00,
      sale: {
        price_hkd_cents: 90_00,
        price_gbp_cents: 50_00,
        price_eur_cents: null,
        price_usd_cents: null,
        ends_at: null,
      },
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UserError);
    expect((refused as UserError).problem.field).toBe("sale_price_gbp");
  });

  it("knows the next sale end, and the scheduler clears ended sales", async () => {
    const product = await saleProduct();
    expect(await nextSaleEnd(db, BEFORE)).toBe(END.toISOString());
    expect(await nextSaleEnd(db, AFTER)).toBeNull();
    expect(await clearEndedSales(db, BEFORE)).toEqual({ ended: 0 });
    expect(await clearEndedSales(db, AFTER)).toEqual({ ended: 1 });
    const row = await db.selectFrom("products").selectAll().where("id", "=", product.id).executeTakeFirstOrThrow();
    expect(row.sale_price_hkd_cents).toBeNull();
  });
});

describe("sale prices in the product CSV", () => {
  function csvOf(rows: Record<string, string>[]): string {
    const columns = Object.keys(rows[0] ?? {});
    return [columns.join(","), ...rows.map((row) => columns.map((c) => row[c] ?? "").join(","))].join("\r\n");
  }
  async function exported(productId: number) {
    for await (const record of productCsvRecords(db, "http://shop.test")) {
      if (record.product_id === String(productId)) return record;
    }
    throw new Error("not exported");
  }
  const saleOf = async (id: number) =>
    db
      .selectFrom("products")
      .select(["sale_price_hkd_cents", "sale_price_gbp_cents", "sale_price_gbp_derived", "sale_ends_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("exports the sale in Hong Kong time, imports a change, refuses one not below the price, and leaves it alone without the columns", async () => {
    const product = await saleProduct();
    const row = await exported(product.id);
    expect(row).toMatchObject({
      sale_price_hkd: "450.00",
      sale_price_gbp: "",
      sale_ends: "2099-12-01 18:00",
    });
    expect((await planProductImport(db, csvOf([row]))).unchanged).toBe(1);

    const changed = await planProductImport(
      db,
      csvOf([{ ...row, sale_price_hkd: "400", sale_price_gbp: "39.00", sale_ends: "2099-12-24 12:00" }]),
    );
    expect(changed.errors).toEqual([]);
    await applyProductImport(db, changed, null);
    expect(await saleOf(product.id)).toEqual({
      sale_price_hkd_cents: 400_00,
      sale_price_gbp_cents: 39_00,
      sale_price_gbp_derived: 0,
      sale_ends_at: "2099-12-24T04:00:00.000Z",
    });

    const notBelow = await planProductImport(db, csvOf([{ ...row, sale_price_hkd: "500" }]));
    expect(notBelow.errors).toEqual([
      expect.objectContaining({
        line: 2,
        params: { column: "sale_price_hkd", reason: "adminProductForm.errors.saleNotBelow" },
      }),
    ]);

    const {
      sale_price_hkd: _a,
      sale_price_gbp: _b,
      sale_price_eur: _c,
      sale_price_usd: _d,
      sale_ends: _e,
      ...old
    } = row;
    const untouched = await planProductImport(db, csvOf([{ ...old, price_hkd: "520.00" }]));
    await applyProductImport(db, untouched, null);
    expect((await saleOf(product.id)).sale_price_hkd_cents).toBe(400_00);

    // Emptied: the sale ends.
    const cleared = await planProductImport(
      db,
      csvOf([{ ...(await exported(product.id)), sale_price_hkd: "", sale_price_gbp: "", sale_ends: "" }]),
    );
    await applyProductImport(db, cleared, null);
    expect((await saleOf(product.id)).sale_price_hkd_cents).toBeNull();
  });
});
