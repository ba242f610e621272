import { beforeEach, describe, expect, it } from "vitest";
import { createBrand, deleteBrand } from "~/models/brands.server";
import { applyProductImport, planProductImport, productCsvRecords } from "~/models/products/csv.server";
import { createProduct } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";

/*
 * The product CSV's `brand` column (issue 28 item 2/6, docs/decisions/052) on a real database:
 * exported as the brand's slug; imported by slug (any case), empty = no brand, an unknown slug is
 * an error of its row, a file without the column leaves brands as they are.
 */

let svc: TestServices;
const actor = { actorUserId: null };
let maruiId: number;
let productId: number;
beforeEach(async () => {
  svc = await freshTestServices();
  maruiId = (await createBrand(svc.db, { name: "Tokyo Marui" }, actor)).id;
  await createBrand(svc.db, { name: "Krytac" }, actor);
  productId = (await createProduct(svc.db, { name_en: "Hi-Capa", name_zh: "大容量", brand_id: maruiId })).id;
});

async function exported(): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const record of productCsvRecords(svc.db, "http://shop.test")) rows.push(record);
  return rows;
}

function csvOf(rows: Record<string, string>[], drop: string[] = []): string {
  const columns = Object.keys(rows[0] ?? {}).filter((column) => !drop.includes(column));
  const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return [columns.join(","), ...rows.map((row) => columns.map((c) => quote(row[c] ?? "")).join(","))].join("\n");
}

const brandIdOf = async (id: number) =>
  (await svc.db.selectFrom("products").select("brand_id").where("id", "=", id).executeTakeFirstOrThrow()).brand_id;

describe("the product CSV's brand column", () => {
  it("exports the brand's slug, and the file imported back changes nothing", async () => {
    const rows = await exported();
    expect(rows[0]?.brand).toBe("tokyo-marui");
    const plan = await planProductImport(svc.db, csvOf(rows));
    expect([plan.errors, plan.unchanged, plan.updates.length]).toEqual([[], 1, 0]);
  });

  it("sets another brand by slug (any case), clears it with an empty cell, and creates with one", async () => {
    const rows = await exported();
    const base = rows[0] as Record<string, string>;
    const plan = await planProductImport(
      svc.db,
      csvOf([
        { ...base, brand: "KRYTAC" },
        { ...base, product_id: "", name_en: "New One", brand: "tokyo-marui" },
      ]),
    );
    expect(plan.errors).toEqual([]);
    await applyProductImport(svc.db, plan, null);
    const krytac = await svc.db
      .selectFrom("brands")
      .select("id")
      .where("slug", "=", "krytac")
      .executeTakeFirstOrThrow();
    expect(await brandIdOf(productId)).toBe(krytac.id);
    const created = await svc.db
      .selectFrom("products")
      .select("brand_id")
      .where("name_en", "=", "New One")
      .executeTakeFirstOrThrow();
    expect(created.brand_id).toBe(maruiId);

    await applyProductImport(svc.db, await planProductImport(svc.db, csvOf([{ ...base, brand: "" }])), null);
    expect(await brandIdOf(productId)).toBeNull();
  });

  it("refuses a slug no brand has as an error of its row, writing nothing", async () => {
    const rows = await exported();
    const plan = await planProductImport(svc.db, csvOf([{ ...(rows[0] as Record<string, string>), brand: "vfc" }]));
    expect(plan.errors).toEqual([{ line: 2, key: "adminProductCsv.errors.unknownBrand", params: { slug: "vfc" } }]);
    expect(await brandIdOf(productId)).toBe(maruiId);
  });

  it("leaves the brand as it is when the file has no brand column (an older export)", async () => {
    const rows = await exported();
    const plan = await planProductImport(
      svc.db,
      csvOf([{ ...(rows[0] as Record<string, string>), name_en: "Renamed" }], ["brand"]),
    );
    expect(plan.errors).toEqual([]);
    await applyProductImport(svc.db, plan, null);
    expect(await brandIdOf(productId)).toBe(maruiId);
  });

  it("refuses the confirm (409) when a brand it names was deleted after the preview", async () => {
    const rows = await exported();
    const free = await createBrand(svc.db, { name: "VFC" }, actor);
    const plan = await planProductImport(svc.db, csvOf([{ ...(rows[0] as Record<string, string>), brand: "vfc" }]));
    expect(plan.errors).toEqual([]);
    await deleteBrand(svc.db, free.id, actor);
    await expect(applyProductImport(svc.db, plan, null)).rejects.toMatchObject({ status: 409 });
    expect(await brandIdOf(productId)).toBe(maruiId);
  });
});
