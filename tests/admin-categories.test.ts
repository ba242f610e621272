import { createInstance } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { I18nextInstanceProvider as I18nextProvider } from "~/lib/i18n";
import { UserError } from "~/lib/problem";
import type { MemoryStorage } from "~/lib/storage.server";
import resources from "~/locales";
import { languageCookie } from "~/middleware/i18next";
import {
  createCategory,
  deleteCategory,
  listActiveCategories,
  listAllCategories,
  updateCategory,
} from "~/models/categories.server";
import type { CurrentUser } from "~/request/auth.server";
import CategoryManager, { action, loader } from "~/routes/admin/categories";
import { type CategoryInput, categorySchema, slugify } from "~/schemas/category";
import { createProduct, createSignedIn, uniqueTag } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

let svc: TestServices;
let db: DB;
let storage: MemoryStorage;
let ADMIN: CurrentUser;
let CUSTOMER: CurrentUser;
let actor: { actorUserId: string };
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db, storage } = svc);
  ADMIN = await createSignedIn(db, { email: "cat-boss@shop.hk", admin: true });
  CUSTOMER = await createSignedIn(db, { email: "cat-buyer@shop.hk" });
  actor = { actorUserId: ADMIN.id };
});

function input(overrides: Partial<CategoryInput> = {}): CategoryInput {
  const tag = uniqueTag();
  return {
    name_en: `Test Category ${tag}`,
    name_zh: `測試分類${tag}`,
    description_en: null,
    description_zh: null,
    sort_order: 0,
    is_active: true,
    adult_only: false,
    slug: null,
    remove_image: false,
    ...overrides,
  };
}

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 120, b: 40 } } })
    .png()
    .toBuffer();
}

async function storedKey(): Promise<string> {
  const key = `categories/${crypto.randomUUID()}.webp`;
  await storage.put("public", key, await png(), "image/webp");
  return key;
}

async function addProduct(categoryId: number) {
  return createProduct(db, {
    category_id: categoryId,
    name_en: "Category test rifle",
    name_zh: "分類測試步槍",
    description_en: "Test",
    description_zh: "測試",
    price_hkd_cents: 1000,
    price_gbp_cents: 100,
    price_eur_cents: 100,
    price_usd_cents: 100,
  });
}

function parse(fields: Record<string, string>) {
  return categorySchema.safeParse(Object.fromEntries(formOf(fields)));
}

describe("the category schema", () => {
  it("requires both names with the spec's messages (as translation keys)", () => {
    const result = parse({ name_en: "  ", name_zh: "" });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toContainEqual(["name_en", "adminCategories.errors.nameEnRequired"]);
    expect(issues).toContainEqual(["name_zh", "adminCategories.errors.nameZhRequired"]);
  });

  it("turns empty descriptions into null, a non-integer sort order into 0, a ticked box into true", () => {
    const ok = categorySchema.parse({ name_en: "Rifles", name_zh: "步槍", sort_order: "2.5", is_active: "on" });
    expect(ok).toMatchObject({ description_en: null, description_zh: null, sort_order: 0, is_active: true });
    expect(categorySchema.parse({ name_en: "R", name_zh: "步", sort_order: "abc" }).sort_order).toBe(0);
    expect(categorySchema.parse({ name_en: "R", name_zh: "步", sort_order: "7" }).sort_order).toBe(7);
    expect(categorySchema.parse({ name_en: "R", name_zh: "步" }).is_active).toBe(false);
  });

  it("slugifies: lowercase, spaces, '&' and punctuation become hyphens", () => {
    expect(slugify("Tactical Gear & Vests!")).toBe("tactical-gear-vests");
    expect(slugify("  New   Arrivals ")).toBe("new-arrivals");
    expect(categorySchema.parse({ name_en: "R", name_zh: "步", slug: "My Slug" }).slug).toBe("my-slug");
    expect(parse({ name_en: "R", name_zh: "步", slug: "!!!" }).success).toBe(false);
  });
});

describe("category model", () => {
  it("creates with a slug from the English name and lists with product counts in sort order", async () => {
    const late = await createCategory(db, storage, input({ name_en: "Zulu & Co. Gear", sort_order: 50 }), actor);
    const early = await createCategory(db, storage, input({ sort_order: -5 }), actor);
    expect(late.slug).toBe("zulu-co-gear");
    await addProduct(late.id);
    const list = await listAllCategories(db);
    const ids = list.map((row) => row.id);
    expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(late.id));
    expect(list.find((row) => row.id === late.id)?.product_count).toBe(1);
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "category.created")
      .where("entity_id", "=", String(late.id))
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(ADMIN.id);
  });

  it("refuses a slug another category uses with a field error, not an exception", async () => {
    const first = await createCategory(db, storage, input({ slug: "duplicate-slug" }), actor);
    expect(first.slug).toBe("duplicate-slug");
    await expect(createCategory(db, storage, input({ slug: "duplicate-slug" }), actor)).rejects.toMatchObject({
      problem: { field: "slug", key: "adminCategories.errors.slugTaken" },
    });
    const other = await createCategory(db, storage, input(), actor);
    await expect(
      updateCategory(db, storage, other.id, input({ slug: "duplicate-slug" }), actor),
    ).rejects.toBeInstanceOf(UserError);
  });

  it("keeps the slug and the image when editing without a new one; deletes the old file when replaced", async () => {
    const key = await storedKey();
    const created = await createCategory(db, storage, input({ name_en: "Sniper Rifles" }), { ...actor, imageKey: key });
    const { id } = created;
    await addProduct(id);

    const renamed = await updateCategory(db, storage, id, input({ name_en: "Marksman Rifles" }), actor);
    expect(renamed).toMatchObject({
      slug: "sniper-rifles",
      image_path: key,
      name_en: "Marksman Rifles",
    });
    expect(await storage.exists("public", key)).toBe(true);
    // Products stay attached: they point at the id.
    const product = await db.selectFrom("products").select("category_id").where("category_id", "=", id).execute();
    expect(product).toHaveLength(1);

    const replacement = await storedKey();
    const replaced = await updateCategory(db, storage, id, input(), { ...actor, imageKey: replacement });
    expect(replaced.image_path).toBe(replacement);
    expect(await storage.exists("public", key)).toBe(false);

    const removed = await updateCategory(db, storage, id, input({ remove_image: true }), {
      ...actor,
      removeImage: true,
    });
    expect(removed.image_path).toBeNull();
    expect(await storage.exists("public", replacement)).toBe(false);
  });

  it("refuses to delete a category products still use, and deletes an unused one with its image", async () => {
    const used = await createCategory(db, storage, input(), actor);
    await addProduct(used.id);
    await expect(deleteCategory(db, storage, used.id, actor)).rejects.toMatchObject({
      problem: { key: "adminCategories.errors.inUse", params: { count: 1 } },
    });
    expect(await db.selectFrom("categories").select("id").where("id", "=", used.id).execute()).toHaveLength(1);

    const key = await storedKey();
    const unused = await createCategory(db, storage, input(), { ...actor, imageKey: key });
    expect((await deleteCategory(db, storage, unused.id, actor)).id).toBe(unused.id);
    expect(await storage.exists("public", key)).toBe(false);
    expect(await db.selectFrom("categories").select("id").where("id", "=", unused.id).execute()).toEqual([]);
  });
});

/* ---------------------------------------------------------------------------------------- */

const run = <T>(fn: (args: never) => Promise<T>, request: Request, user: CurrentUser | null) =>
  runRoute(svc, fn, request, user);

async function post(form: FormData, user: CurrentUser | null = ADMIN) {
  const request = new Request("http://localhost/admin/categories", {
    method: "POST",
    body: form,
    headers: { Cookie: await languageCookie.serialize("en") },
  });
  return run(action, request, user);
}

type Reply = { data: { result: { status?: string; error?: Record<string, string[]> } }; init: { status: number } };

describe("the Category Manager route", () => {
  it("refuses a non-admin post with 403 and changes nothing", async () => {
    const before = await db.selectFrom("categories").select("id").execute();
    for (const user of [CUSTOMER, null]) {
      const { thrown } = await post(formOf({ intent: "create", name_en: "Hacked", name_zh: "入侵" }), user);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(403);
    }
    expect(await db.selectFrom("categories").select("id").execute()).toEqual(before);
  });

  it("sends a non-admin page view to /admin/login", async () => {
    const { thrown } = await run(loader, new Request("http://localhost/admin/categories"), CUSTOMER);
    expect((thrown as Response).headers.get("Location")).toBe("/admin/login");
  });

  it("creates with an image, redirects with the flash, and the navigation shows it at once", async () => {
    const form = formOf({
      intent: "create",
      name_en: "Night Vision",
      name_zh: "夜視裝備",
      description_en: "",
      sort_order: "3",
      is_active: "on",
    });
    form.set("image", new File([new Uint8Array(await png())], "nv.png", { type: "image/png" }));
    const { result, thrown, flash } = await post(form);
    expect(thrown).toBeUndefined();
    expect(result).toBeInstanceOf(Response);
    expect((result as Response).headers.get("Location")).toBe("/admin/categories");
    expect(flash).toMatchObject({ type: "success", key: "adminCategories.created" });
    const active = await listActiveCategories(db);
    const row = active.find((category) => category.slug === "night-vision");
    expect(row).toMatchObject({ name_zh: "夜視裝備", sort_order: 3, description_en: null });
    expect(row?.image_path && (await storage.exists("public", row.image_path))).toBe(true);

    const { result: page } = await run(loader, new Request(`http://localhost/admin/categories?edit=${row?.id}`), ADMIN);
    expect((page as Awaited<ReturnType<typeof loader>>).editing?.image_url).toBe(`/uploads/${row?.image_path}`);
  });

  it("answers an invalid image with 400, its message next to the field, and saves nothing", async () => {
    const form = formOf({ intent: "create", name_en: "Bad Image Cat", name_zh: "壞圖片" });
    form.set("image", new File(["not an image"], "x.png", { type: "image/png" }));
    const { result } = await post(form);
    const reply = result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error?.image).toEqual(["errors.image.unsupportedType"]);
    expect(await db.selectFrom("categories").where("name_en", "=", "Bad Image Cat").selectAll().execute()).toEqual([]);
  });

  it("answers missing names with 400 and the field errors", async () => {
    const { result } = await post(formOf({ intent: "create", name_en: "", name_zh: "" }));
    const reply = result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error?.name_en).toEqual(["adminCategories.errors.nameEnRequired"]);
    expect(reply.data.result.error?.name_zh).toEqual(["adminCategories.errors.nameZhRequired"]);
  });

  it("asks for confirmation before deleting without JavaScript, and refuses one still in use", async () => {
    const created = await createCategory(db, storage, input(), actor);
    const { id } = created;
    const first = await post(formOf({ intent: "delete", id: String(id) }));
    expect((first.result as Response).headers.get("Location")).toBe(`/admin/categories?delete=${id}`);

    await addProduct(id);
    const refused = await post(formOf({ intent: "delete", id: String(id), confirmed: "1" }));
    const reply = refused.result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error?.[""]).toEqual([
      "adminCategories.errors.deleteFailed",
      "adminCategories.errors.inUse",
    ]);

    await db.deleteFrom("products").where("category_id", "=", id).execute();
    const done = await post(formOf({ intent: "delete", id: String(id), confirmed: "1" }));
    expect((done.result as Response).headers.get("Location")).toBe("/admin/categories");
    expect(done.flash).toMatchObject({ key: "adminCategories.deleted" });
  });
});

describe("the Category Manager page", () => {
  async function render(search: string, actionData?: unknown) {
    const { result } = await run(loader, new Request(`http://localhost/admin/categories${search}`), ADMIN);
    const i18n = createInstance();
    await i18n.init({ resources, lng: "en", interpolation: { escapeValue: false } });
    const Stub = createRoutesStub([{ id: "categories", path: "/admin/categories", Component: CategoryManager }]);
    return renderToString(
      createElement(
        I18nextProvider,
        { i18n },
        createElement(Stub, {
          initialEntries: [`/admin/categories${search}`],
          hydrationData: {
            loaderData: { categories: result },
            ...(actionData ? { actionData: { categories: actionData } } : {}),
          },
        }),
      ),
    );
  }

  it("lists every category with its badge, image URL or 'No image uploaded', and Edit and Delete", async () => {
    const created = await createCategory(db, storage, input({ name_en: "Hidden Optics", is_active: false }), actor);
    const html = await render("");
    expect(html).toContain("Category Manager");
    expect(html).toContain("Add Category");
    expect(html).toContain("Hidden Optics");
    expect(html).toContain("Inactive");
    expect(html).toContain("No image uploaded");
    expect(html).toContain(`href="/admin/categories?edit=${created.id}"`);
    expect(html).toContain("Delete Hidden Optics");
    // Without JavaScript the delete post carries no confirmation: the action asks on a second page.
    expect(html).not.toContain('name="confirmed"');
  });

  it("shows the form for ?new=1 and ?edit=, and the confirmation step for ?delete=", async () => {
    const created = await createCategory(db, storage, input({ name_en: "Form Cat" }), { ...actor });
    const fresh = await render("?new=1");
    expect(fresh).toContain("Add New Category");
    expect(fresh).toMatch(/enctype="multipart\/form-data"/i);
    expect(fresh).toMatch(/<input[^>]*type="checkbox"[^>]*checked=""/);
    const edit = await render(`?edit=${created.id}`);
    expect(edit).toContain("Edit Category");
    expect(edit).toContain('value="Form Cat"');
    expect(edit).toContain("Update");
    const confirm = await render(`?delete=${created.id}`);
    expect(confirm).toContain("Are you sure you want to delete this category?");
    expect(confirm).toContain('name="confirmed" value="1"');
  });

  it("keeps the typed values and shows the image refusal, with its limit, next to the field", async () => {
    const form = formOf({ intent: "create", name_en: "Typed Name", name_zh: "已輸入", sort_order: "4" });
    form.set("image", new File([new Uint8Array(10 * 1024 * 1024 + 64 * 1024)], "big.png", { type: "image/png" }));
    const { result } = await post(form);
    const reply = result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    const html = await render("?new=1", reply.data);
    expect(html).toContain("File too large. Please upload an image smaller than 10MB.");
    expect(html).toContain('value="Typed Name"');
    expect(html).toContain('value="4"');
  });
});
