import type { SubmissionResult } from "@conform-to/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Problem } from "~/lib/problem";
import { listBrands } from "~/models/brands.server";
import type { CurrentUser } from "~/request/auth.server";
import { action, loader } from "~/routes/admin/brands";
import { action as productAction, loader as productLoader } from "~/routes/admin/product-form";
import { createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { adminAccount, dataOf, formOf, runRoute, statusOf } from "./setup/route";

/*
 * Admin → Brands (issue 28 item 2, docs/decisions/052) on a real database — SQLite, and
 * PostgreSQL in the `postgres` project: owner and staff add, rename and delete brands; bad input
 * comes back next to its field with the input kept; a brand in use is not deleted (409).
 */

let svc: TestServices;
let owner: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  owner = await adminAccount(svc, "owner");
});

const BASE = "http://localhost";
const post = (path: string, fields: Record<string, string>) =>
  new Request(`${BASE}${path}`, { method: "POST", body: formOf(fields) });
type Answer = { result: SubmissionResult<string[]>; problem: Problem | null };

async function add(name: string, extra: Record<string, string> = {}, who: CurrentUser = owner) {
  return runRoute(svc, action, post("/admin/brands?new=1", { intent: "create", name, ...extra }), who);
}

describe("Admin → Brands", () => {
  it("the owner adds brands; the list shows them in order with how many products use each", async () => {
    const added = await add("Tokyo Marui", { name_zh: "東京丸井", sort_order: "2" });
    expect(statusOf(added.result)).toBe(302);
    expect(added.flash).toMatchObject({ key: "adminBrands.created", params: { name: "Tokyo Marui" } });
    await add("G&G", { sort_order: "1" });
    const [gg, marui] = await listBrands(svc.db);
    expect(marui).toMatchObject({ name: "Tokyo Marui", name_zh: "東京丸井", slug: "tokyo-marui" });
    const product = await createProduct(svc.db);
    await svc.db.updateTable("products").set({ brand_id: marui?.id }).where("id", "=", product.id).execute();
    const page = await runRoute(svc, loader, new Request(`${BASE}/admin/brands`), owner);
    expect(page.result?.brands.map((brand) => [brand.name, brand.productCount])).toEqual([
      ["G&G", 0],
      ["Tokyo Marui", 1],
    ]);
    expect(gg?.slug).toBe("g-g");
    const audit = await svc.db.selectFrom("audit_log").select(["action", "actor_user_id"]).execute();
    expect(audit).toContainEqual({ action: "brand.created", actor_user_id: owner.id });
  });

  it("staff rename a brand in both languages; its slug stays so links keep working", async () => {
    const staff = await adminAccount(svc, "staff");
    await add("VFC", {}, staff);
    const [vfc] = await listBrands(svc.db);
    const edit = await runRoute(svc, loader, new Request(`${BASE}/admin/brands?edit=${vfc?.id}`), staff);
    expect(edit.result?.editing).toMatchObject({ name: "VFC" });
    const saved = await runRoute(
      svc,
      action,
      post(`/admin/brands?edit=${vfc?.id}`, {
        intent: "update",
        id: String(vfc?.id),
        name: "Vega Force Company",
        name_zh: "威嘉",
        slug: "",
        sort_order: "3",
      }),
      staff,
    );
    expect(saved.flash).toMatchObject({ key: "adminBrands.updated" });
    expect((await listBrands(svc.db))[0]).toMatchObject({
      name: "Vega Force Company",
      name_zh: "威嘉",
      slug: "vfc",
      sort_order: 3,
    });
  });

  it("refuses a missing name and a taken slug next to the field (400), keeping the input", async () => {
    const empty = await add("", { name_zh: "無名" });
    expect(statusOf(empty.result)).toBe(400);
    const emptyAnswer = dataOf<Answer>(empty.result);
    expect(emptyAnswer.result.error?.name).toEqual(["adminBrands.errors.nameRequired"]);
    expect(emptyAnswer.result.initialValue).toMatchObject({ name_zh: "無名" });

    await add("Krytac");
    const taken = await add("KRYTAC", { name_zh: "卡利達" });
    expect(statusOf(taken.result)).toBe(400);
    const takenAnswer = dataOf<Answer>(taken.result);
    expect(takenAnswer.result.error?.slug).toEqual(["adminBrands.errors.slugTaken"]);
    expect(takenAnswer.result.initialValue).toMatchObject({ name: "KRYTAC", name_zh: "卡利達" });
    expect(await listBrands(svc.db)).toHaveLength(1);
  });

  it("deletes after a confirmation step; a brand products use is refused (409) with how many", async () => {
    await add("Tokyo Marui");
    const [brand] = await listBrands(svc.db);
    const id = String(brand?.id);
    const product = await createProduct(svc.db);
    await svc.db.updateTable("products").set({ brand_id: brand?.id }).where("id", "=", product.id).execute();

    // Without JavaScript the first post leads to the confirmation step.
    const first = await runRoute(svc, action, post("/admin/brands", { intent: "delete", id }), owner);
    expect((first.result as Response).headers.get("Location")).toBe(`/admin/brands?delete=${id}`);
    const step = await runRoute(svc, loader, new Request(`${BASE}/admin/brands?delete=${id}`), owner);
    expect(step.result?.deleting).toMatchObject({ name: "Tokyo Marui", productCount: 1 });

    const refused = await runRoute(svc, action, post("/admin/brands", { intent: "delete", id, confirmed: "1" }), owner);
    expect(statusOf(refused.result)).toBe(409);
    expect(dataOf<Answer>(refused.result).problem).toMatchObject({
      key: "adminBrands.errors.inUse",
      params: { count: 1, name: "Tokyo Marui" },
    });
    expect(await listBrands(svc.db)).toHaveLength(1);

    await svc.db.updateTable("products").set({ brand_id: null }).where("id", "=", product.id).execute();
    const deleted = await runRoute(svc, action, post("/admin/brands", { intent: "delete", id, confirmed: "1" }), owner);
    expect(deleted.flash).toMatchObject({ key: "adminBrands.deleted" });
    expect(await listBrands(svc.db)).toHaveLength(0);
  });

  it("refuses customers and signed-out visitors, changing nothing", async () => {
    const customer = await createSignedIn(svc.db);
    for (const who of [customer, null]) {
      const page = await runRoute(svc, loader, new Request(`${BASE}/admin/brands`), who);
      expect([302, 403]).toContain(statusOf(page.thrown));
      const added = await add("Forged", {}, who as CurrentUser);
      expect([302, 403]).toContain(statusOf(added.thrown ?? added.result));
    }
    expect(await listBrands(svc.db)).toHaveLength(0);
  });
});

describe("the product form's Brand select", () => {
  const PRODUCT = { intent: "save", name_en: "Hi-Capa 5.1", name_zh: "大容量手槍", price_hkd: "1500" };
  const saveProduct = (fields: Record<string, string>, id?: number) =>
    runRoute(
      svc,
      productAction,
      post(id === undefined ? "/admin/products/new" : `/admin/products/edit/${id}`, { ...PRODUCT, ...fields }),
      owner,
      id === undefined ? {} : { id: String(id) },
    );
  const brandOf = async (name: string) =>
    await svc.db
      .selectFrom("products")
      .select(["id", "brand_id"])
      .where("name_en", "=", name)
      .executeTakeFirstOrThrow();

  it("offers the brands, saves the chosen one, shows it again, audits it and clears it", async () => {
    await add("Tokyo Marui", { name_zh: "東京丸井" });
    const [marui] = await listBrands(svc.db);
    const blank = await runRoute(svc, productLoader, new Request(`${BASE}/admin/products/new`), owner);
    expect(blank.result?.brands.map((brand) => brand.name)).toEqual(["Tokyo Marui"]);

    expect(statusOf((await saveProduct({ brand_id: String(marui?.id) })).result)).toBe(302);
    const product = await brandOf("Hi-Capa 5.1");
    expect(product.brand_id).toBe(marui?.id);
    const edit = await runRoute(svc, productLoader, new Request(`${BASE}/admin/products/edit/${product.id}`), owner, {
      id: String(product.id),
    });
    expect(edit.result?.defaultValue.brand_id).toBe(String(marui?.id));

    expect(statusOf((await saveProduct({ brand_id: "" }, product.id)).result)).toBe(302);
    expect((await brandOf("Hi-Capa 5.1")).brand_id).toBeNull();
    const audit = await svc.db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "product.updated")
      .where("entity_id", "=", String(product.id))
      .executeTakeFirstOrThrow();
    const details = JSON.parse(audit.details ?? "{}");
    expect([details.before.product.brand_id, details.after.product.brand_id]).toEqual([marui?.id, null]);
  });

  it("refuses a brand that does not exist next to the field (400), keeping the input", async () => {
    const refused = await saveProduct({ brand_id: "999999" });
    expect(statusOf(refused.result)).toBe(400);
    const answer = dataOf<Answer>(refused.result);
    expect(answer.result.error?.brand_id).toEqual(["adminProductForm.errors.brandInvalid"]);
    expect(answer.result.initialValue).toMatchObject({ name_en: "Hi-Capa 5.1", brand_id: "999999" });
    expect(await svc.db.selectFrom("products").select("id").where("name_en", "=", "Hi-Capa 5.1").execute()).toEqual([]);
  });
});
