import { describe, expect, it } from "vitest";
import { seedDemo } from "#db/seed/index.server";
import { MemoryStorage } from "~/lib/storage.server";
import {
  findActiveCategory,
  findProduct,
  listProducts,
  listRelatedProducts,
  normalizeSlug,
  PRICE_BANDS,
  parsePriceBand,
  priceBandRange,
  titleFromSlug,
} from "~/models/products/catalog.server";
import { searchProducts } from "~/models/products/search.server";
import { createTestDb } from "./setup/db";

const { db } = await createTestDb();
await seedDemo(db, new MemoryStorage());

async function categoryId(slug: string): Promise<number> {
  const row = await db.selectFrom("categories").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
  return row.id;
}

describe("the title rule and slug matching", () => {
  it("builds titles from the path as the spec says", () => {
    expect(titleFromSlug(undefined)).toBe("All Products");
    expect(titleFromSlug("all")).toBe("All Products");
    expect(titleFromSlug("rifles")).toBe("Rifles");
    expect(titleFromSlug("tactical-gear")).toBe("Tactical & Gear");
    expect(titleFromSlug("bags & cases")).toBe("Bags & Cases");
    expect(titleFromSlug("HOLSTERS-flashlight")).toBe("Holsters & Flashlight");
    expect(titleFromSlug("new-arrivals")).toBe("New Arrivals");
  });

  it("matches slugs ignoring case and treating spaces, ampersands and hyphens alike", async () => {
    expect(normalizeSlug("Tactical Gear")).toBe("tactical-gear");
    expect(normalizeSlug("tactical & gear")).toBe("tactical-gear");
    expect(normalizeSlug(" TACTICAL--gear ")).toBe("tactical-gear");
    expect((await findActiveCategory(db, "Tactical Gear"))?.slug).toBe("tactical-gear");
    expect((await findActiveCategory(db, "tactical&gear"))?.slug).toBe("tactical-gear");
    expect(await findActiveCategory(db, "nope")).toBeUndefined();
    // Inactive categories are not listed.
    expect(await findActiveCategory(db, "eyewear")).toBeUndefined();
  });
});

describe("listings", () => {
  it("filters by category and price band, on the price in the shopper's currency", async () => {
    const rifles = await categoryId("rifles");
    const all = await listProducts(db, { categoryId: rifles, sort: "featured", page: 1, currency: "HKD" });
    expect(all.total).toBeGreaterThan(0);
    for (const currency of ["HKD", "GBP"] as const) {
      for (const band of PRICE_BANDS) {
        const { min, max } = priceBandRange(band, currency);
        const listing = await listProducts(db, {
          categoryId: null,
          price: band,
          sort: "newest",
          page: 1,
          currency,
          pageSize: 100,
        });
        expect(listing.total, `${currency} ${band}`).toBeGreaterThan(0);
        for (const product of listing.products) {
          expect(product.price_cents).toBeGreaterThanOrEqual(min);
          if (max !== null) expect(product.price_cents).toBeLessThan(max);
        }
      }
    }
    // The bands meet at amounts of each currency's own: under £40 is not under HK$400.
    expect(priceBandRange("budget", "GBP")).toEqual({ min: 0, max: 40_00 });
    expect(priceBandRange("mid", "HKD")).toEqual({ min: 400_00, max: 800_00 });
    expect(priceBandRange("top", "EUR")).toEqual({ min: 200_00, max: null });
    // Links from earlier releases keep working.
    expect(parsePriceBand("under-400")).toBe("budget");
    expect(parsePriceBand("over-1600")).toBe("top");
    expect(parsePriceBand("high")).toBe("high");
    expect(parsePriceBand("cheap")).toBeNull();
  });

  it("sorts four ways, prices in the shopper's currency", async () => {
    const base = { categoryId: null, page: 1, pageSize: 100 } as const;
    const low = await listProducts(db, { ...base, sort: "price-low-high", currency: "GBP" });
    const gbp = low.products.map((p) => p.price_cents);
    expect(gbp).toEqual([...gbp].sort((a, b) => a - b));
    expect(low.products.every((p) => p.currency === "GBP")).toBe(true);
    const high = await listProducts(db, { ...base, sort: "price-high-low", currency: "EUR" });
    const eur = high.products.map((p) => p.price_cents);
    expect(eur).toEqual([...eur].sort((a, b) => b - a));
    const featured = await listProducts(db, { ...base, sort: "featured", currency: "HKD" });
    const flags = featured.products.map((p) => p.is_featured);
    expect(flags.indexOf(false)).toBeGreaterThan(0);
    expect(flags.slice(flags.indexOf(false)).includes(true)).toBe(false);
    const newest = await listProducts(db, { ...base, sort: "newest", currency: "HKD" });
    const rows = await db.selectFrom("products").select(["id", "created_at"]).execute();
    const created = new Map(rows.map((r) => [r.id, r.created_at]));
    const dates = newest.products.map((p) => created.get(p.id) ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("pages 24 at a time and clamps the page number", async () => {
    const first = await listProducts(db, { categoryId: null, sort: "newest", page: 1, currency: "HKD" });
    expect(first.products).toHaveLength(24);
    expect(first.pages).toBe(Math.ceil(first.total / 24));
    const last = await listProducts(db, { categoryId: null, sort: "newest", page: 999, currency: "HKD" });
    expect(last.page).toBe(first.pages);
    const ids = new Set([...first.products, ...last.products].map((p) => p.id));
    expect(ids.size).toBe(first.products.length + last.products.length);
  });

  it("lists new arrivals: only recent products, newest first", async () => {
    const listing = await listProducts(db, {
      categoryId: null,
      newArrivals: true,
      sort: "newest",
      page: 1,
      currency: "HKD",
      pageSize: 100,
    });
    const everything = await listProducts(db, {
      categoryId: null,
      sort: "newest",
      page: 1,
      currency: "HKD",
      pageSize: 100,
    });
    expect(listing.total).toBeGreaterThan(0);
    expect(listing.total).toBeLessThan(everything.total);
  });

  it("gives cards their colours and stock in two queries, not one per card", async () => {
    const listing = await listProducts(db, {
      categoryId: null,
      sort: "newest",
      page: 1,
      currency: "HKD",
      pageSize: 100,
    });
    const soldOut = listing.products.filter((p) => p.total_stock === 0);
    expect(soldOut.length).toBeGreaterThanOrEqual(3);
    expect(listing.products.every((p) => p.colors.length >= 1)).toBe(true);
  });
});

describe("search", () => {
  it("matches English names case-insensitively and partially (3+ characters: full-text)", async () => {
    const hits = await searchProducts(db, "cqb CARBINE", "HKD");
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => /cqb carbine/i.test(h.name_en))).toBe(true);
    expect((await searchProducts(db, "arbin", "HKD")).length).toBeGreaterThan(0);
  });

  it("matches Chinese names, including 2-character queries", async () => {
    const pistols = await searchProducts(db, "手槍", "HKD");
    expect(pistols.length).toBeGreaterThan(0);
    expect(pistols.every((h) => h.name_zh.includes("手槍") || h.category_zh?.includes("手槍"))).toBe(true);
    const three = await searchProducts(db, "霰彈槍", "HKD");
    expect(three.length).toBeGreaterThan(0);
  });

  it("matches the category, ignores 0-1 characters, caps at 10, escapes wildcards", async () => {
    const byCategory = await searchProducts(db, "shotguns", "HKD");
    expect(byCategory.length).toBeGreaterThan(0);
    expect(byCategory.every((h) => h.category_en === "Shotguns" || /shotgun/i.test(h.name_en))).toBe(true);
    expect(await searchProducts(db, "a", "HKD")).toEqual([]);
    expect(await searchProducts(db, "  ", "HKD")).toEqual([]);
    expect((await searchProducts(db, "ar", "HKD")).length).toBeLessThanOrEqual(10);
    expect(await searchProducts(db, "%%", "HKD")).toEqual([]);
    expect(await searchProducts(db, '"zz"', "HKD")).toEqual([]);
  });

  it("finds with 步槍 what 長槍 and rifle find: the default synonyms (issue 25)", async () => {
    const ids = async (term: string) => {
      const listing = await listProducts(db, {
        categoryId: null,
        search: term,
        sort: "newest",
        page: 1,
        currency: "HKD",
      });
      return listing.products.map((p) => p.id).sort((a, b) => a - b);
    };
    const byChinese = await ids("長槍");
    // Before synonyms, 步槍 found the one product with 步槍 in its name.
    expect(byChinese.length).toBeGreaterThan(5);
    expect(await ids("步槍")).toEqual(byChinese);
    expect(await ids("rifle")).toEqual(byChinese);
    expect(await ids("電槍")).toEqual(await ids("AEG"));
    expect((await ids("電槍")).length).toBeGreaterThan(3);
    expect(await ids("護目鏡")).toEqual(await ids("goggles"));
  });

  it("keeps the index in sync with product writes", async () => {
    const product = await db.selectFrom("products").select(["id"]).orderBy("id").executeTakeFirstOrThrow();
    await db.updateTable("products").set({ name_en: "Zyxwv Special Edition" }).where("id", "=", product.id).execute();
    expect((await searchProducts(db, "zyxwv", "HKD")).map((h) => h.id)).toEqual([product.id]);
    await db.deleteFrom("product_variants").where("product_id", "=", product.id).execute();
    await db.deleteFrom("product_images").where("product_id", "=", product.id).execute();
    await db.deleteFrom("products").where("id", "=", product.id).execute();
    expect(await searchProducts(db, "zyxwv", "HKD")).toEqual([]);
  });
});

describe("the product page", () => {
  it("loads a product with images, colours, price in the currency, and related products", async () => {
    const rifles = await categoryId("rifles");
    const first = await db
      .selectFrom("products")
      .select("id")
      .where("category_id", "=", rifles)
      .executeTakeFirstOrThrow();
    const product = await findProduct(db, first.id, "USD");
    expect(product?.currency).toBe("USD");
    expect(product?.images.length).toBeGreaterThan(0);
    expect(product?.variants.length).toBeGreaterThan(0);
    const related = await listRelatedProducts(db, product!, "USD");
    expect(related.length).toBeLessThanOrEqual(4);
    expect(related.every((p) => p.id !== first.id && p.category_slug === "rifles")).toBe(true);
    expect(await findProduct(db, 999_999, "HKD")).toBeNull();
    expect(await findProduct(db, Number.NaN, "HKD")).toBeNull();
  });
});
