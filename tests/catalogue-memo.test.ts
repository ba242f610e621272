import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connect.server";
import { countryOptions } from "~/lib/countries";
import { createBrand } from "~/models/brands.server";
import { catalogueMemo } from "~/models/catalogue-memo.server";
import { listActiveCategories } from "~/models/categories.server";
import { findActiveCategory, listingBrands } from "~/models/products/catalog.server";
import { createCategory, createProduct } from "./factories";
import { freshTestDb } from "./setup/db";

/*
 * Per-catalogue-version memos (issue 31 item 4, decision 069): what every page reads (the active
 * categories, a listing's brand counts) is kept while the catalogue does not change, and any
 * change — through a model, or a plain write as another process or a CLI makes — shows at once;
 * a sale's end, which changes the catalogue with no write, shows at its end.
 */

let db: DB;
const actor = { actorUserId: null };
beforeEach(async () => {
  ({ db } = await freshTestDb());
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the active categories", () => {
  it("are read once per catalogue version, and a change shows at once", async () => {
    const rifles = await createCategory(db, { name_en: "Rifles", slug: "rifles" });
    const first = await listActiveCategories(db);
    // Kept: the same list, not read again.
    expect(await listActiveCategories(db)).toBe(first);
    expect(first.map((c) => c.slug)).toContain("rifles");

    await createCategory(db, { name_en: "Pistols", slug: "pistols" });
    expect((await listActiveCategories(db)).map((c) => c.slug)).toContain("pistols");

    // A plain write (another process, a CLI command) bumps the version through the triggers.
    await db.updateTable("categories").set({ is_active: 0 }).where("id", "=", rifles.id).execute();
    expect((await listActiveCategories(db)).map((c) => c.slug)).not.toContain("rifles");
    expect(await findActiveCategory(db, "rifles")).toBeUndefined();
  });

  it("are read afresh inside a transaction, which may have written", async () => {
    const pistols = await createCategory(db, { name_en: "Pistols", slug: "pistols" });
    await listActiveCategories(db);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("categories").set({ name_en: "Handguns" }).where("id", "=", pistols.id).execute();
      const inside = await listActiveCategories(trx);
      expect(inside.find((c) => c.id === pistols.id)?.name_en).toBe("Handguns");
    });
  });
});

describe("a listing's brand counts", () => {
  it("are kept per catalogue version: a new product shows in them at once", async () => {
    const pistols = await createCategory(db, { name_en: "Pistols", slug: "pistols" });
    const marui = await createBrand(db, { name: "Tokyo Marui", sort_order: 1 }, actor);
    const gg = await createBrand(db, { name: "G&G", sort_order: 2 }, actor);
    await createProduct(db, { category_id: pistols.id, brand_id: marui.id });
    const query = { categoryId: pistols.id, currency: "HKD" as const };
    const first = await listingBrands(db, query);
    expect(await listingBrands(db, query)).toBe(first);
    expect(first.map((b) => [b.name, b.count])).toEqual([["Tokyo Marui", 1]]);

    await createProduct(db, { category_id: pistols.id, brand_id: gg.id });
    await createProduct(db, { category_id: pistols.id, brand_id: marui.id });
    expect((await listingBrands(db, query)).map((b) => [b.name, b.count])).toEqual([
      ["Tokyo Marui", 2],
      ["G&G", 1],
    ]);
  });

  it("of the sale listing end with the sale, with no write", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const end = new Date(Date.now() + 60 * 60 * 1000);
    const marui = await createBrand(db, { name: "Tokyo Marui", sort_order: 1 }, actor);
    await createProduct(db, {
      brand_id: marui.id,
      price_hkd_cents: 500_00,
      price_gbp_cents: null,
      price_eur_cents: null,
      price_usd_cents: null,
      sale: {
        price_hkd_cents: 450_00,
        price_gbp_cents: null,
        price_eur_cents: null,
        price_usd_cents: null,
        ends_at: end.toISOString(),
      },
    });
    const sale = { categoryId: null, onSale: true, currency: "HKD" as const };
    expect((await listingBrands(db, sale)).map((b) => b.name)).toEqual(["Tokyo Marui"]);
    vi.setSystemTime(new Date(end.getTime() - 1000));
    expect((await listingBrands(db, sale)).map((b) => b.name)).toEqual(["Tokyo Marui"]);
    vi.setSystemTime(new Date(end.getTime() + 1000));
    expect(await listingBrands(db, sale)).toEqual([]);
  });
});

describe("catalogueMemo", () => {
  it("keeps at most maxEntries values, dropping the least recently used", async () => {
    const memo = catalogueMemo<number>({ maxEntries: 2 });
    let computed = 0;
    const value = (key: string) => memo(db, key, async () => ++computed);
    expect([await value("a"), await value("b"), await value("a")]).toEqual([1, 2, 1]);
    await value("c"); // drops b, the least recently used
    expect(await value("a")).toBe(1);
    expect(await value("b")).toBe(4);
  });
});

describe("country options", () => {
  it("are computed once per language", () => {
    expect(countryOptions("en")).toBe(countryOptions("en"));
    expect(countryOptions("en")[0]).toEqual({ code: "HK", name: "Hong Kong" });
    expect(countryOptions("zh")[0]).toEqual({ code: "HK", name: "香港" });
  });
});
