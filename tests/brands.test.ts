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
