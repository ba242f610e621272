import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { UserError } from "~/lib/problem";
import { brandName, createBrand, deleteBrand, findBrandBySlug, listBrands, updateBrand } from "~/models/brands.server";
import { createProduct } from "./factories";
import { freshTestServices } from "./setup/db";

let db: DB;
const actor = { actorUserId: null };
beforeEach(async () => {
  ({ db } = await freshTestServices());
});

async function refusal(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  return error as UserError;
}

describe("brands", () => {
  it("are listed in the operator's order with how many products use each", async () => {
    const marui = await createBrand(db, { name: "Tokyo Marui", name_zh: "東京丸井", sort_order: 2 }, actor);
    const gg = await createBrand(db, { name: "G&G", sort_order: 1 }, actor);
    expect(marui.slug).toBe("tokyo-marui");
    expect(gg.slug).toBe("g-g");
    const product = await createProduct(db);
    await db.updateTable("products").set({ brand_id: marui.id }).where("id", "=", product.id).execute();
    const list = await listBrands(db);
    expect(list.map((brand) => [brand.name, brand.productCount])).toEqual([
      ["G&G", 0],
      ["Tokyo Marui", 1],
    ]);
    expect(brandName(marui, "zh")).toBe("東京丸井");
    expect(brandName(gg, "zh")).toBe("G&G");
    expect((await findBrandBySlug(db, "tokyo-marui"))?.id).toBe(marui.id);
    const audit = await db.selectFrom("audit_log").select("action").where("entity_type", "=", "brand").execute();
    expect(audit.map((row) => row.action)).toEqual(["brand.created", "brand.created"]);
  });

  it("refuse a second brand with the same slug, next to the slug field", async () => {
    await createBrand(db, { name: "Krytac" }, actor);
    const error = await refusal(createBrand(db, { name: "KRYTAC" }, actor));
    expect(error.key).toBe("adminBrands.errors.slugTaken");
    expect(error.problem.field).toBe("slug");
  });

  it("keep their slug when renamed, so links to the listing keep working", async () => {
    const vfc = await createBrand(db, { name: "VFC" }, actor);
    const renamed = await updateBrand(db, vfc.id, { name: "Vega Force Company" }, actor);
    expect(renamed).toMatchObject({ name: "Vega Force Company", slug: "vfc" });
    const audit = await db.selectFrom("audit_log").select("action").where("action", "=", "brand.updated").execute();
    expect(audit).toHaveLength(1);
  });

  it("in use by a product cannot be deleted; an unused one can", async () => {
    const brand = await createBrand(db, { name: "Tokyo Marui" }, actor);
    const product = await createProduct(db);
    await db.updateTable("products").set({ brand_id: brand.id }).where("id", "=", product.id).execute();
    const error = await refusal(deleteBrand(db, brand.id, actor));
    expect(error.key).toBe("adminBrands.errors.inUse");
    expect(error.params).toEqual({ count: 1, name: "Tokyo Marui" });
    expect(await listBrands(db)).toHaveLength(1);
    await db.updateTable("products").set({ brand_id: null }).where("id", "=", product.id).execute();
    await deleteBrand(db, brand.id, actor);
    expect(await listBrands(db)).toEqual([]);
  });

  it("renew the cached storefront pages when they change", async () => {
    const version = async () =>
      (await db.selectFrom("page_cache_version").select("version").executeTakeFirstOrThrow()).version;
    const before = await version();
    await createBrand(db, { name: "G&G" }, actor);
    expect(await version()).toBeGreaterThan(before);
  });
});

describe("a brand in the shop", () => {
  it("filters a listing to its products and is named on the product and in its structured data", async () => {
    const { listProducts, findProduct } = await import("~/models/products/catalog.server");
    const { productJsonLd } = await import("~/lib/structured-data.server");
    const marui = await createBrand(db, { name: "Tokyo Marui", name_zh: "東京丸井" }, actor);
    const branded = await createProduct(db);
    const other = await createProduct(db);
    await db.updateTable("products").set({ brand_id: marui.id }).where("id", "=", branded.id).execute();
    const query = { categoryId: null, sort: "newest" as const, page: 1, currency: "HKD" as const };
    const all = await listProducts(db, query);
    expect(all.products.map((card) => card.id).sort()).toEqual([branded.id, other.id].sort());
    const filtered = await listProducts(db, { ...query, brandId: marui.id });
    expect(filtered.products.map((card) => card.id)).toEqual([branded.id]);
    expect(filtered.total).toBe(1);

    const detail = await findProduct(db, branded.id, "HKD");
    expect(detail?.brand).toEqual({ name: "Tokyo Marui", name_zh: "東京丸井", slug: "tokyo-marui" });
    expect((await findProduct(db, other.id, "HKD"))?.brand).toBeNull();
    if (!detail) throw new Error("no product");
    expect(productJsonLd(detail, "https://shop.test", "en").brand).toEqual({ "@type": "Brand", name: "Tokyo Marui" });
    expect(productJsonLd(detail, "https://shop.test", "zh").brand).toEqual({ "@type": "Brand", name: "東京丸井" });
  });
});
