import { parse } from "csv-parse/sync";
import { beforeEach, describe, expect, it } from "vitest";
import { productZoneIds, setProductZones } from "~/models/orders/restrictions.server";
import { applyProductImport, planProductImport } from "~/models/products/csv.server";
import { createZone, type ZoneInput } from "~/models/shipping/zones.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as exportAction } from "~/routes/admin/products-export";
import { action as importAction } from "~/routes/admin/products-import";
import { createCategory, createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

let svc: TestServices;
let admin: CurrentUser;

beforeEach(async () => {
  svc = await freshTestServices();
  admin = await createSignedIn(svc.db, { admin: true });
});

async function exportBytes(): Promise<Buffer> {
  const { result, thrown } = await runRoute(
    svc,
    exportAction,
    new Request("http://localhost/admin/products/export", { method: "POST", body: formOf({}) }),
    admin,
  );
  expect(thrown).toBeUndefined();
  const response = result as Response;
  expect(response.headers.get("Content-Disposition")).toMatch(
    /^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  return Buffer.from(await response.arrayBuffer());
}

function rowsOf(bytes: Buffer): Record<string, string>[] {
  return parse(bytes, { bom: true, columns: true });
}

function csvOf(rows: Record<string, string>[]): Buffer {
  const columns = Object.keys(rows[0] ?? {});
  const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const lines = [columns.join(","), ...rows.map((row) => columns.map((c) => quote(row[c] ?? "")).join(","))];
  return Buffer.from(`\uFEFF${lines.join("\r\n")}\r\n`);
}

type Preview = {
  created: number;
  updated: number;
  unchanged: number;
  errors: { line: number; key: string }[];
  token: string | null;
};

async function preview(bytes: Buffer, user: CurrentUser | null = admin) {
  const form = formOf({
    intent: "preview",
    file: new File([new Uint8Array(bytes)], "products.csv", { type: "text/csv" }),
  });
  const run = await runRoute(
    svc,
    importAction,
    new Request("http://localhost/admin/products/import", { method: "POST", body: form }),
    user,
  );
  const answer = run.result as unknown as { data: { preview: Preview }; init: { status: number } } | undefined;
  return { ...run, preview: answer?.data.preview, status: answer?.init?.status };
}

async function confirm(token: string, user: CurrentUser = admin) {
  return runRoute(
    svc,
    importAction,
    new Request("http://localhost/admin/products/import", {
      method: "POST",
      body: formOf({ intent: "confirm", token }),
    }),
    user,
  );
}

async function snapshot() {
  return {
    products: await svc.db.selectFrom("products").selectAll().orderBy("id").execute(),
    variants: await svc.db.selectFrom("product_variants").selectAll().orderBy("id").execute(),
  };
}

describe("product CSV", () => {
  it("round-trips: an untouched export previews as 0 created, 0 updated and confirms without a change", async () => {
    const category = await createCategory(svc.db);
    await createProduct(svc.db, {
      category_id: category.id,
      price_gbp_cents: null,
      variants: [
        ["Black", 3],
        ["Tan", 0],
      ],
    });
    await createProduct(svc.db, { name_en: '=HYPERLINK("http://evil")', is_featured: true, variants: [] });
    const bytes = await exportBytes();
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.toString("utf8")).toContain("\r\n");
    const rows = rowsOf(bytes);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      category: category.slug,
      price_hkd: "50.00",
      price_gbp: "",
      colour: "Black",
      stock: "3",
    });
    // A formula-looking cell is text in a spreadsheet.
    expect(rows[2]?.name_en).toBe(`'=HYPERLINK("http://evil")`);
    const audit = await svc.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "product.exported")
      .execute();
    expect(JSON.parse(audit[0]?.details ?? "").after).toEqual({ rows: 3 });

    const before = await snapshot();
    const { preview: shown } = await preview(bytes);
    expect(shown).toMatchObject({ created: 0, updated: 0, unchanged: 2, errors: [] });
    const done = await confirm(shown?.token ?? "");
    expect((done.result as Response).headers.get("Location")).toBe("/admin/products");
    expect(done.flash).toMatchObject({
      key: "adminProductCsv.imported",
      params: { created: 0, updated: 0, unchanged: 2 },
    });
    expect(await snapshot()).toEqual(before);
    // The staged file is gone: the same token cannot be confirmed twice.
    const again = await confirm(shown?.token ?? "");
    expect((again.result as unknown as { init: { status: number } }).init.status).toBe(409);
  });

  it("guards formulas as the customer export does (a phone-like + stays plain), and round-trips both", async () => {
    const names = ["+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "+852 6123 4567"];
    for (const name_en of names) await createProduct(svc.db, { name_en, variants: [["Black", 1]] });
    const bytes = await exportBytes();
    expect(rowsOf(bytes).map((row) => row.name_en)).toEqual([
      "'+1+cmd|' /C calc'!A0",
      "'-2+3",
      "'@SUM(A1)",
      "+852 6123 4567",
    ]);
    const before = await snapshot();
    const { preview: shown } = await preview(bytes);
    expect(shown).toMatchObject({ created: 0, updated: 0, unchanged: 4, errors: [] });
    await confirm(shown?.token ?? "");
    expect(await snapshot()).toEqual(before);
  });

  it("keeps Excel-style quoting (comma, doubled quote, line break) in a Chinese description", async () => {
    const description = '第一行，有逗號, "引號" 及\r\n第二行';
    const product = await createProduct(svc.db, { description_zh: "舊", variants: [["Black", 1]] });
    const rows = rowsOf(await exportBytes());
    const edited = rows.map((row) => ({ ...row, description_zh: description }));
    const { preview: shown } = await preview(csvOf(edited));
    expect(shown).toMatchObject({ created: 0, updated: 1, errors: [] });
    await confirm(shown?.token ?? "");
    const saved = await svc.db
      .selectFrom("products")
      .select("description_zh")
      .where("id", "=", product.id)
      .executeTakeFirstOrThrow();
    expect(saved.description_zh).toBe(description.trim());
    expect(rowsOf(await exportBytes())[0]?.description_zh).toBe(description.trim());
  });

  it("lists every kind of error with its line and writes nothing", async () => {
    const product = await createProduct(svc.db, { variants: [["Black", 1]] });
    const base = rowsOf(await exportBytes())[0] as Record<string, string>;
    const fresh = { ...base, product_id: "", name_en: "New one" };
    const rows = [
      { ...base, category: "no-such-slug" }, // line 2
      { ...fresh, name_en: "Dup", colour: "Red" }, // 3
      { ...fresh, name_en: "Dup", colour: "red" }, // 4: duplicate colour
      { ...fresh, name_en: "Neg", stock: "-1" }, // 5
      { ...fresh, name_en: "Frac", stock: "1.5" }, // 6
      { ...fresh, name_en: "Price", price_hkd: "12.345" }, // 7
      { ...fresh, name_en: "NoZh", name_zh: "" }, // 8
      { ...base, product_id: "999999" }, // 9
      { ...fresh, name_en: "Two", colour: "A" }, // 10
      { ...fresh, name_en: "Two", colour: "B", price_hkd: "1.00" }, // 11: disagrees with line 10
    ];
    const before = await snapshot();
    const { preview: shown, status } = await preview(csvOf(rows));
    expect(status).toBe(400);
    expect(shown?.token).toBeNull();
    const lines = (shown?.errors ?? []).map((error) => error.line);
    for (const line of [2, 4, 5, 6, 7, 8, 9, 11]) expect(lines).toContain(line);
    const keys = new Set(shown?.errors.map((error) => error.key));
    expect(keys).toEqual(
      new Set([
        "adminProductCsv.errors.unknownCategory",
        "adminProductCsv.errors.field",
        "adminProductCsv.errors.unknownProduct",
        "adminProductCsv.errors.rowsDisagree",
      ]),
    );
    expect(await snapshot()).toEqual(before);
    expect(product.id).toBeGreaterThan(0);

    const missing = await preview(Buffer.from("product_id,name_en\r\n1,x\r\n"));
    expect(missing.preview?.errors).toEqual([
      expect.objectContaining({ line: 1, key: "adminProductCsv.errors.missingColumns" }),
    ]);
  });

  it("writes all or nothing on confirm", async () => {
    const category = await createCategory(svc.db);
    const product = await createProduct(svc.db, { category_id: category.id, variants: [["Black", 1]] });
    const rows = rowsOf(await exportBytes());
    const edited = [
      { ...(rows[0] as Record<string, string>), price_hkd: "99.00" },
      { ...(rows[0] as Record<string, string>), product_id: "", name_en: "Brand new", colour: "Olive", stock: "4" },
    ];
    const { preview: shown } = await preview(csvOf(edited));
    expect(shown).toMatchObject({ created: 1, updated: 1, errors: [] });
    const before = await snapshot();
    // The category goes between preview and confirm: the whole import is refused.
    await svc.db.updateTable("products").set({ category_id: null }).execute();
    await svc.db.deleteFrom("categories").where("id", "=", category.id).execute();
    const mid = await snapshot();
    const refused = await confirm(shown?.token ?? "");
    expect((refused.result as unknown as { init: { status: number } }).init.status).toBe(409);
    expect(await snapshot()).toEqual(mid);
    expect(before.products).toHaveLength(1);
    expect(product.id).toBe(before.products[0]?.id);
  });

  it("refuses a file over 10 MB with 413 at the file field", async () => {
    const big = await preview(Buffer.alloc(10 * 1024 * 1024 + 1, 0x61));
    const answer = big.result as unknown as {
      data: { problem: { key: string; field: string } };
      init: { status: number };
    };
    expect(answer.init.status).toBe(413);
    expect(answer.data.problem).toMatchObject({ key: "adminProductCsv.errors.tooLarge", field: "file" });
  });

  it("refuses non-admins and another admin's token", async () => {
    const shopper = await createSignedIn(svc.db);
    const exported = await runRoute(
      svc,
      exportAction,
      new Request("http://localhost/admin/products/export", { method: "POST", body: formOf({}) }),
      shopper,
    );
    expect((exported.thrown as Response).status).toBe(403);
    await createProduct(svc.db);
    const bytes = await exportBytes();
    const refused = await preview(bytes, shopper);
    expect((refused.thrown as Response).status).toBe(403);
    // An upload previewed long ago and never confirmed is removed by the next upload.
    const abandoned = "imports/abc123/1-00000000-0000-0000-0000-000000000000.csv";
    await svc.storage.put("private", abandoned, Buffer.from("x"), "text/csv");
    const { preview: shown } = await preview(bytes);
    expect(await svc.storage.exists("private", abandoned)).toBe(false);
    const other = await createSignedIn(svc.db, { admin: true });
    const stolen = await confirm(shown?.token ?? "", other);
    expect((stolen.result as unknown as { init: { status: number } }).init.status).toBe(409);
  });
});

describe("the 18+ column (docs/decisions/049)", () => {
  it("exports adult_only, imports yes/no, and leaves the flag as it is when the cell is empty or the column absent", async () => {
    const { db } = svc;
    const adult = await createProduct(db);
    await db.updateTable("products").set({ adult_only: 1 }).where("id", "=", adult.id).execute();
    const rows = rowsOf(await exportBytes());
    const row = rows.find((r) => r.product_id === String(adult.id));
    expect(row?.adult_only).toBe("yes");
    const flag = async () =>
      (await db.selectFrom("products").select("adult_only").where("id", "=", adult.id).executeTakeFirstOrThrow())
        .adult_only;
    const apply = async (cells: Record<string, string>[]) => {
      const plan = await planProductImport(db, csvOf(cells));
      expect(plan.errors).toEqual([]);
      await applyProductImport(db, plan, admin.id);
    };
    const own = rows.filter((r) => r.product_id === String(adult.id));
    await apply(own.map((r) => ({ ...r, adult_only: "" })));
    expect(await flag()).toBe(1);
    await apply(own.map(({ adult_only: _dropped, ...rest }) => rest));
    expect(await flag()).toBe(1);
    await apply(own.map((r) => ({ ...r, adult_only: "no" })));
    expect(await flag()).toBe(0);
    await apply(own.map((r) => ({ ...r, adult_only: "YES" })));
    expect(await flag()).toBe(1);
    const bad = await planProductImport(db, csvOf(own.map((r) => ({ ...r, adult_only: "maybe" }))));
    expect(bad.errors.map((e) => e.key)).toContain("adminProductCsv.errors.adultInvalid");
  });
});

describe("the weight and ship-zones columns (docs/decisions/049)", () => {
  const rate = { feeCents: 30_00, freeAboveCents: null, bands: [] };
  const zoneInput = (nameEn: string, nameZh: string, countries: string[]): ZoneInput => ({
    nameEn,
    nameZh,
    sortOrder: 1,
    countries,
    rates: { HKD: rate, GBP: rate, EUR: rate, USD: rate },
  });

  it("exports weight_grams and ship_zones, round-trips them unchanged, imports changes, and leaves both alone in a file without the columns", async () => {
    const { db } = svc;
    const taiwan = await createZone(db, admin.id, zoneInput("Taiwan", "台灣", ["TW"]));
    const macau = await createZone(db, admin.id, zoneInput("Macau", "澳門", ["MO"]));
    const rifle = await createProduct(db, {
      variants: [
        ["Black", 2],
        ["Tan", 1],
      ],
    });
    await db.updateTable("products").set({ weight_grams: 3200 }).where("id", "=", rifle.id).execute();
    await setProductZones(db, rifle.id, [macau, taiwan]);
    const plain = await createProduct(db, { variants: [] });

    const rows = rowsOf(await exportBytes());
    const own = rows.filter((r) => r.product_id === String(rifle.id));
    expect(own.map((r) => [r.weight_grams, r.ship_zones])).toEqual([
      ["3200", `${Math.min(taiwan, macau)}|${Math.max(taiwan, macau)}`],
      ["3200", `${Math.min(taiwan, macau)}|${Math.max(taiwan, macau)}`],
    ]);
    expect(rows.find((r) => r.product_id === String(plain.id))).toMatchObject({ weight_grams: "0", ship_zones: "" });

    // Untouched: nothing to update.
    const untouched = await planProductImport(db, csvOf(rows));
    expect(untouched).toMatchObject({ creates: [], updates: [], unchanged: 2, errors: [] });

    const state = async () => ({
      weight: (
        await db.selectFrom("products").select("weight_grams").where("id", "=", rifle.id).executeTakeFirstOrThrow()
      ).weight_grams,
      zones: await productZoneIds(db, rifle.id),
    });
    const apply = async (cells: Record<string, string>[]) => {
      const plan = await planProductImport(db, csvOf(cells));
      expect(plan.errors).toEqual([]);
      await applyProductImport(db, plan, admin.id);
      return plan;
    };

    // A file from before these columns: weight and zones stay as they are.
    const old = await apply(own.map(({ weight_grams: _w, ship_zones: _z, ...rest }) => rest));
    expect(old.unchanged).toBe(1);
    expect(await state()).toEqual({ weight: 3200, zones: [taiwan, macau].sort((a, b) => a - b) });

    // Changed: one zone (spaces allowed around ids), a new weight.
    const changed = await apply(own.map((r) => ({ ...r, weight_grams: "850", ship_zones: ` ${taiwan} ` })));
    expect(changed.updates).toHaveLength(1);
    expect(await state()).toEqual({ weight: 850, zones: [taiwan] });

    // Empty cells: 0 grams (not weighed) and no limit of its own, as the product form saves them.
    await apply(own.map((r) => ({ ...r, weight_grams: "", ship_zones: "" })));
    expect(await state()).toEqual({ weight: 0, zones: [] });

    // A new product with its weight and zones.
    await apply([
      {
        ...own[0],
        product_id: "",
        name_en: "New rifle",
        colour: "Default",
        weight_grams: "4100",
        ship_zones: `${macau}`,
      },
    ] as Record<string, string>[]);
    const created = await db
      .selectFrom("products")
      .select(["id", "weight_grams"])
      .where("name_en", "=", "New rifle")
      .executeTakeFirstOrThrow();
    expect(created.weight_grams).toBe(4100);
    expect(await productZoneIds(db, created.id)).toEqual([macau]);
  });

  it("refuses the confirm (409, nothing written) when a zone of the file was deleted after the preview", async () => {
    const { db } = svc;
    const taiwan = await createZone(db, admin.id, zoneInput("Taiwan", "台灣", ["TW"]));
    const item = await createProduct(db, { variants: [] });
    const rows = rowsOf(await exportBytes()).map((r) => ({ ...r, ship_zones: String(taiwan), weight_grams: "500" }));
    const plan = await planProductImport(db, csvOf(rows));
    expect(plan.errors).toEqual([]);
    await db.deleteFrom("shipping_zones").where("id", "=", taiwan).execute();
    await expect(applyProductImport(db, plan, admin.id)).rejects.toMatchObject({
      key: "adminProductCsv.errors.changedSince",
    });
    const after = await db
      .selectFrom("products")
      .select("weight_grams")
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(after.weight_grams).toBe(0);
  });

  it("refuses an unknown zone id and a bad weight as errors of their lines, and writes nothing", async () => {
    const { db } = svc;
    const taiwan = await createZone(db, admin.id, zoneInput("Taiwan", "台灣", ["TW"]));
    const first = await createProduct(db, { variants: [] });
    await createProduct(db, { variants: [] });
    const rows = rowsOf(await exportBytes());
    const edited = rows.map((r) =>
      r.product_id === String(first.id)
        ? { ...r, ship_zones: `${taiwan}|99999|Taiwan` }
        : { ...r, weight_grams: "1.5" },
    );
    const before = await snapshot();
    const { preview: shown, status } = await preview(csvOf(edited));
    expect(status).toBe(400);
    expect(shown?.token).toBe(null);
    const plan = await planProductImport(db, csvOf(edited));
    expect(plan.errors).toEqual([
      { line: 2, key: "adminProductCsv.errors.unknownZone", params: { zone: "99999" } },
      { line: 2, key: "adminProductCsv.errors.unknownZone", params: { zone: "Taiwan" } },
      {
        line: 3,
        key: "adminProductCsv.errors.field",
        params: { column: "weight_grams", reason: "adminProductForm.errors.weightInvalid" },
      },
    ]);
    expect(await snapshot()).toEqual(before);
    expect(await productZoneIds(db, first.id)).toEqual([]);
  });
});
