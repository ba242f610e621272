import { beforeEach, describe, expect, it } from "vitest";
import { createBrand, updateBrand } from "~/models/brands.server";
import { listingBrands, listProducts } from "~/models/products/catalog.server";
import { searchProducts } from "~/models/products/search.server";
import { loader as categoryLoader } from "~/routes/store/category";
import { loader as productLoader } from "~/routes/store/product";
import { loader as searchLoader } from "~/routes/store/search";
import { createCategory, createProduct } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { dataOf, runRoute } from "./setup/route";

/*
 * Brands in the storefront (issue 28 item 2, docs/decisions/052) on a real database — SQLite, and
 * PostgreSQL in the `postgres` project: a listing narrowed by ?brand= with only the brands it has,
 * the product page naming its brand, and search finding products by their brand's name in
 * English and Chinese, also right after a rename.
 */

let svc: TestServices;
const actor = { actorUserId: null };
let marui: { id: number };
let gg: { id: number };
let pistols: { id: number; slug: string };
beforeEach(async () => {
  svc = await freshTestServices();
  marui = await createBrand(svc.db, { name: "Tokyo Marui", name_zh: "東京丸井", sort_order: 1 }, actor);
  gg = await createBrand(svc.db, { name: "G&G", sort_order: 2 }, actor);
  await createBrand(svc.db, { name: "Krytac", sort_order: 3 }, actor);
  pistols = await createCategory(svc.db, { name_en: "Pistols", name_zh: "手槍", slug: "pistols" });
  await createProduct(svc.db, {
    name_en: "Hi-Capa 5.1",
    name_zh: "大容量",
    category_id: pistols.id,
    brand_id: marui.id,
  });
  await createProduct(svc.db, { name_en: "Glock 17", name_zh: "格洛克", category_id: pistols.id, brand_id: marui.id });
  await createProduct(svc.db, { name_en: "GTP9", name_zh: "GTP9 手槍", category_id: pistols.id, brand_id: gg.id });
  await createProduct(svc.db, { name_en: "CM16 Raider", name_zh: "突擊者", brand_id: gg.id });
  await createProduct(svc.db, { name_en: "Plain Holster", name_zh: "槍套", category_id: pistols.id });
});

type CategoryPage = {
  total: number;
  products: { name: string }[];
  empty: string | null;
  brandFilter: {
    active: { slug: string; name: string } | null;
    brands: { slug: string; name: string; count: number }[];
  };
};
/** The listing's data as a client navigation gets it (`/category/x.data?…`: the cards included, decision 068). */
const page = async (path: string, headers: HeadersInit = {}) => {
  const [pathname = "", query] = path.split("?");
  return dataOf<CategoryPage>(
    (
      await runRoute(
        svc,
        categoryLoader,
        new Request(`http://shop.test${pathname}.data${query ? `?${query}` : ""}`, { headers }),
        null,
        { slug: pathname.split("/")[2] ?? "" },
      )
    ).result,
  );
};

describe("a listing's brand filter", () => {
  it("lists only the brands with products in the listing, with their counts, in the operator's order", async () => {
    const listing = await page("/category/pistols");
    expect(listing.total).toBe(4);
    expect(listing.brandFilter.active).toBeNull();
    expect(listing.brandFilter.brands).toEqual([
      { slug: "tokyo-marui", name: "Tokyo Marui", count: 2 },
      { slug: "g-g", name: "G&G", count: 1 },
    ]);
    // Krytac has no products: it is in no listing. All products: G&G's rifle counts too.
    const all = await page("/category/all");
    expect(all.brandFilter.brands.map((brand) => [brand.slug, brand.count])).toEqual([
      ["tokyo-marui", 2],
      ["g-g", 2],
    ]);
  });

  it("?brand= narrows the listing, names the brand (in Chinese too) and keeps the sort", async () => {
    const listing = await page("/category/pistols?brand=tokyo-marui&sort=price-low-high");
    expect(listing.total).toBe(2);
    expect(listing.products.map((product) => product.name).sort()).toEqual(["Glock 17", "Hi-Capa 5.1"]);
    expect(listing.brandFilter.active).toEqual({ slug: "tokyo-marui", name: "Tokyo Marui" });
    const zh = await page("/category/pistols?brand=tokyo-marui&lng=zh");
    expect(zh.brandFilter.active?.name).toBe("東京丸井");
    expect(zh.brandFilter.brands[0]?.name).toBe("東京丸井");
    // A brand without products here: nothing matches, said as a filter with no match.
    const none = await page("/category/pistols?brand=krytac");
    expect([none.total, none.empty]).toEqual([0, "noMatch"]);
    // A slug no brand has (a deleted brand's old link) filters nothing.
    expect((await page("/category/pistols?brand=gone")).total).toBe(4);
  });

  it("the model's listing and the brands agree on the same listing", async () => {
    const listed = await listProducts(svc.db, {
      categoryId: null,
      brandId: gg.id,
      sort: "featured",
      page: 1,
      currency: "HKD",
    });
    expect(listed.total).toBe(2);
    const found = await listingBrands(svc.db, { categoryId: null, search: "hi-capa", currency: "HKD" });
    expect(found.map((brand) => [brand.slug, brand.count])).toEqual([["tokyo-marui", 1]]);
    expect(await listingBrands(svc.db, { categoryId: null, search: "holster", currency: "HKD" })).toEqual([]);
  });
});

describe("the product page", () => {
  it("names the brand and links to its listing", async () => {
    const product = await svc.db
      .selectFrom("products")
      .select("id")
      .where("name_en", "=", "Hi-Capa 5.1")
      .executeTakeFirstOrThrow();
    const load = (lng: string) =>
      runRoute(svc, productLoader, new Request(`http://shop.test/product/${product.id}?lng=${lng}`), null, {
        id: String(product.id),
      });
    const en = (await load("en")).result as { product: { brand: unknown }; jsonLd: { brand?: unknown } };
    expect(en.product.brand).toEqual({ slug: "tokyo-marui", name: "Tokyo Marui" });
    expect(en.jsonLd.brand).toEqual({ "@type": "Brand", name: "Tokyo Marui" });
    const zh = (await load("zh")).result as { product: { brand: unknown } };
    expect(zh.product.brand).toEqual({ slug: "tokyo-marui", name: "東京丸井" });
  });
});

describe("search by brand", () => {
  const names = async (term: string) => (await searchProducts(svc.db, term, "HKD")).map((hit) => hit.name_en).sort();

  it("finds a brand's products by its name, its Chinese name and a 2-character part of it", async () => {
    expect(await names("tokyo marui")).toEqual(["Glock 17", "Hi-Capa 5.1"]);
    expect(await names("Marui")).toEqual(["Glock 17", "Hi-Capa 5.1"]);
    expect(await names("東京丸井")).toEqual(["Glock 17", "Hi-Capa 5.1"]);
    expect(await names("丸井")).toEqual(["Glock 17", "Hi-Capa 5.1"]);
    expect(await names("g&g")).toEqual(["CM16 Raider", "GTP9"]);
  });

  it("finds them by the new name right after a rename, and no longer by the old one", async () => {
    await updateBrand(svc.db, gg.id, { name: "Guay Guay", name_zh: "怪怪" }, actor);
    expect(await names("guay")).toEqual(["CM16 Raider", "GTP9"]);
    expect(await names("怪怪")).toEqual(["CM16 Raider", "GTP9"]);
    expect(await names("g&g")).toEqual([]);
  });

  it("the results page narrows a search by brand with the brands it found", async () => {
    const result = (await runRoute(svc, searchLoader, new Request("http://shop.test/search?q=pist"), null)).result as {
      total: number;
      brandFilter: CategoryPage["brandFilter"];
    };
    // "pist" matches the Pistols category: four products, two brands.
    expect(result.total).toBe(4);
    expect(result.brandFilter.brands.map((brand) => brand.slug)).toEqual(["tokyo-marui", "g-g"]);
    const narrowed = (await runRoute(svc, searchLoader, new Request("http://shop.test/search?q=pist&brand=g-g"), null))
      .result as { total: number };
    expect(narrowed.total).toBe(1);
  });
});
