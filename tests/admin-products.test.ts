import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { seedDemo } from "#db/seed/index.server";
import type { FormAnswer } from "~/lib/form-action.server";
import type { Language } from "~/locales";
import { getInstance, languageCookie } from "~/middleware/i18next";
import {
  ADMIN_PAGE_SIZE,
  adminListPath,
  colourSummary,
  deleteProduct,
  listAdminProducts,
  stockLevel,
  updateProductCategory,
} from "~/models/products/admin-list.server";
import { createUser, findUserById } from "~/models/user.server";
import type { CurrentUser } from "~/request/auth.server";
import { sessionContext } from "~/request/session.server";
import { action, loader } from "~/routes/admin/products";
import { createProduct, placeTestOrder } from "./factories";
import { createTestServices } from "./setup/db";
import { routeContext, runRoute } from "./setup/route";

const svc = await createTestServices();
const { db, storage } = svc;
await seedDemo(db, storage);

const adminRow = await createUser(db, { email: "boss@shop.hk", password: "secret12" });
const customerRow = await createUser(db, { email: "buyer@shop.hk", password: "secret12" });
const ADMIN: CurrentUser = { id: adminRow.id, email: adminRow.email, isAdmin: true, role: "owner" };
const CUSTOMER: CurrentUser = { id: customerRow.id, email: customerRow.email, isAdmin: false, role: null };

async function categoryId(slug: string): Promise<number> {
  return (await db.selectFrom("categories").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
}

let clock = Date.now() + 60_000;
/** A product newer than every seeded one, with the given colours and optional image files. */
async function addProduct(options: {
  en: string;
  zh: string;
  category: string;
  variants: { color: string; stock: number }[];
  images?: number;
  featured?: boolean;
}): Promise<{ id: number; imageKeys: string[] }> {
  clock += 1000;
  const images = await Promise.all(Array.from({ length: options.images ?? 0 }, () => photo()));
  const { id, imageKeys } = await createProduct(
    db,
    {
      category_id: await categoryId(options.category),
      name_en: options.en,
      name_zh: options.zh,
      description_en: "Test product",
      description_zh: "測試產品",
      price_hkd_cents: 123_400,
      price_gbp_cents: 12_399,
      price_eur_cents: 14_599,
      price_usd_cents: 15_899,
      is_featured: options.featured ?? false,
      variants: options.variants,
    },
    { storage, images, createdAt: new Date(clock).toISOString() },
  );
  return { id, imageKeys };
}

async function photo(): Promise<File> {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#556b2f" } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "photo.png", { type: "image/png" });
}

const zebra = await addProduct({
  en: "Zebra 50% Carbine",
  zh: "斑馬百分之五十卡賓槍",
  category: "rifles",
  variants: [
    { color: "Black", stock: 0 },
    { color: "Tan", stock: 4 },
    { color: "Olive Drab", stock: 3 },
    { color: "Grey", stock: 2 },
    { color: "White", stock: 1 },
  ],
  images: 2,
  featured: true,
});
const zebra500 = await addProduct({
  en: "Zebra 500 Carbine",
  zh: "斑馬五百卡賓槍",
  category: "rifles",
  variants: [
    { color: "Black", stock: 0 },
    { color: "Tan", stock: 0 },
  ],
});
const bare = await addProduct({ en: "Zebra Bare Pistol", zh: "斑馬空白手槍", category: "pistols", variants: [] });

/* ---------------------------------------------------------------------------------------- */

const context = (user: CurrentUser | null) => routeContext(svc, user);
const run = <T>(fn: (args: never) => Promise<T>, request: Request, user: CurrentUser | null, ctx = context(user)) =>
  runRoute(svc, fn, request, user, {}, ctx);

async function get(search: string, language: Language = "en", user: CurrentUser | null = ADMIN) {
  const request = new Request(`http://localhost/admin/products${search}`, {
    headers: { Cookie: await languageCookie.serialize(language) },
  });
  const { result, thrown } = await run(loader, request, user);
  if (thrown) throw thrown;
  return result as Awaited<ReturnType<typeof loader>>;
}

async function post(fields: Record<string, string>, user: CurrentUser | null = ADMIN) {
  const request = new Request("http://localhost/admin/products", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: await languageCookie.serialize("en") },
  });
  const { result, thrown, ctx } = await run(action, request, user);
  const flash = ctx.get(sessionContext).data.flash as { type: string; key: string } | undefined;
  if (thrown instanceof Response) return { response: thrown, flash };
  if (thrown) throw thrown;
  if (result instanceof Response) return { response: result, flash };
  // data(): { data, init } — the form answer; its problem read as the page shows it.
  const value = result as unknown as { data: FormAnswer; init: { status: number } };
  const { problem } = value.data;
  const message = problem ? getInstance(ctx).t(problem.key as never, problem.params) : undefined;
  return { status: value.init.status, body: { ok: problem === null && !value.data.result?.error, message }, flash };
}

const base = { currency: "HKD", language: "en" } as const;

describe("listAdminProducts", () => {
  it("searches the English name in English, with LIKE wildcards taken literally", async () => {
    const zebras = await listAdminProducts(db, { ...base, search: "zebra" });
    expect(zebras.products.map((p) => p.id).sort()).toEqual([zebra.id, zebra500.id, bare.id].sort());
    const percent = await listAdminProducts(db, { ...base, search: "50%" });
    expect(percent.products.map((p) => p.id)).toEqual([zebra.id]);
    const underscore = await listAdminProducts(db, { ...base, search: "_" });
    expect(underscore.total).toBe(0);
    // The English list does not search Chinese names.
    expect((await listAdminProducts(db, { ...base, search: "斑馬" })).total).toBe(0);
  });

  it("searches the Chinese name in Chinese", async () => {
    const zh = await listAdminProducts(db, { ...base, language: "zh", search: "斑馬" });
    expect(zh.total).toBe(3);
    const one = await listAdminProducts(db, { ...base, language: "zh", search: "五百" });
    expect(one.products.map((p) => p.id)).toEqual([zebra500.id]);
    expect((await listAdminProducts(db, { ...base, language: "zh", search: "Zebra" })).total).toBe(0);
  });

  it("filters by category", async () => {
    const pistols = await categoryId("pistols");
    const listing = await listAdminProducts(db, { ...base, categoryId: pistols, pageSize: 500 });
    const { n } = await db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("category_id", "=", pistols)
      .executeTakeFirstOrThrow();
    expect(listing.total).toBe(Number(n));
    expect(listing.products.length).toBe(Number(n));
    expect(listing.products.every((p) => p.category_id === pistols)).toBe(true);
    expect(listing.products.some((p) => p.id === bare.id)).toBe(true);
    const both = await listAdminProducts(db, { ...base, categoryId: pistols, search: "zebra" });
    expect(both.products.map((p) => p.id)).toEqual([bare.id]);
  });

  it("pages 20 at a time, newest first, and clamps the page", async () => {
    const { n } = await db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const total = Number(n);
    expect(total).toBeGreaterThan(ADMIN_PAGE_SIZE);
    const first = await listAdminProducts(db, base);
    expect(first.total).toBe(total);
    expect(first.pages).toBe(Math.ceil(total / ADMIN_PAGE_SIZE));
    expect(first.products).toHaveLength(ADMIN_PAGE_SIZE);
    expect(first.products.slice(0, 3).map((p) => p.id)).toEqual([bare.id, zebra500.id, zebra.id]);
    const last = await listAdminProducts(db, { ...base, page: first.pages });
    expect(last.products).toHaveLength(total - (first.pages - 1) * ADMIN_PAGE_SIZE);
    expect((await listAdminProducts(db, { ...base, page: 9999 })).page).toBe(first.pages);
    expect((await listAdminProducts(db, { ...base, page: -3 })).page).toBe(1);
    expect((await listAdminProducts(db, { ...base, page: Number.NaN })).page).toBe(1);
    const all = await listAdminProducts(db, { ...base, pageSize: 1000 });
    const seen = all.products.map((p) => p.id);
    expect(new Set(seen).size).toBe(total);
  });

  it("gives prices in the admin's currency, the first image, colours and the total stock", async () => {
    const gbp = await listAdminProducts(db, { ...base, currency: "GBP", search: "50%" });
    const row = gbp.products[0];
    expect(row?.price_cents).toBe(12_399);
    expect(row?.currency).toBe("GBP");
    expect(row?.image_url).toBe(`/uploads/${zebra.imageKeys[0]}`);
    expect(row?.total_stock).toBe(10);
    expect(row?.is_featured).toBe(true);
    expect(colourSummary(row?.colors ?? [])).toEqual({
      kind: "some",
      shown: [
        { color: "Tan", color_zh: null, stock: 4 },
        { color: "Olive Drab", color_zh: null, stock: 3 },
      ],
      more: 2,
    });
    const out = (await listAdminProducts(db, { ...base, search: "500" })).products[0];
    expect(out?.image_url).toBeNull();
    expect(colourSummary(out?.colors ?? [])).toEqual({ kind: "out" });
    const none = (await listAdminProducts(db, { ...base, search: "Bare" })).products[0];
    expect(colourSummary(none?.colors ?? [])).toEqual({ kind: "none" });
    expect(none?.total_stock).toBe(0);
  });

  it("colours the stock badge by the spec's thresholds", () => {
    expect([0, 1, 10, 11, 500].map(stockLevel)).toEqual(["none", "low", "low", "high", "high"]);
  });
});

describe("adminListPath", () => {
  it("keeps only a /admin/products URL and its list parameters", () => {
    expect(adminListPath("/admin/products?q=ak&category=2&page=3&delete=5&x=1")).toBe(
      "/admin/products?q=ak&category=2&page=3",
    );
    expect(adminListPath("/admin/products")).toBe("/admin/products");
    for (const bad of ["//evil.example", "https://evil.example/admin/products", "/admin/orders", "/admin", null, ""]) {
      expect(adminListPath(bad), String(bad)).toBe("/admin/products");
    }
  });
});

describe("the /admin/products loader", () => {
  it("lists in English with the query parameters", async () => {
    const data = await get("?q=zebra");
    expect(data.total).toBe(3);
    expect(data.q).toBe("zebra");
    expect(data.language).toBe("en");
    expect(data.returnTo).toBe("/admin/products?q=zebra");
    expect(data.title).toBe("Products | Admin");
  });

  it("searches Chinese names for an admin reading in Chinese", async () => {
    const data = await get("?q=%E6%96%91%E9%A6%AC", "zh");
    expect(data.language).toBe("zh");
    expect(data.total).toBe(3);
  });

  it("ignores a bad category or page and shows the ?delete= confirmation step", async () => {
    const data = await get(`?category=abc&page=x&delete=${zebra500.id}`);
    expect(data.categoryId).toBeNull();
    expect(data.page).toBe(1);
    expect(data.toDelete).toEqual({ id: zebra500.id, name_en: "Zebra 500 Carbine", name_zh: "斑馬五百卡賓槍" });
    expect(data.returnTo).toBe("/admin/products");
    expect((await get("?delete=999999")).toDelete).toBeNull();
  });

  it("sends a non-admin to /admin/login", async () => {
    const error = await get("", "en", CUSTOMER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).headers.get("Location")).toBe("/admin/login");
  });
});

describe("the /admin/products action", () => {
  it("changes the category inline, audits it and goes back to the same list", async () => {
    const shotguns = await categoryId("shotguns");
    const { response, flash } = await post({
      intent: "category",
      productId: String(zebra500.id),
      categoryId: String(shotguns),
      returnTo: "/admin/products?q=zebra&page=1",
    });
    expect(response?.status).toBe(302);
    expect(response?.headers.get("Location")).toBe("/admin/products?q=zebra&page=1");
    expect(flash).toEqual({ type: "success", key: "adminProducts.categoryUpdated" });
    const row = await db.selectFrom("products").select("category_id").where("id", "=", zebra500.id).executeTakeFirst();
    expect(row?.category_id).toBe(shotguns);
    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "product.category_changed")
      .where("entity_id", "=", String(zebra500.id))
      .executeTakeFirstOrThrow();
    expect(audit.actor_user_id).toBe(ADMIN.id);
    expect(JSON.parse(audit.details ?? "{}")).toEqual({
      before: { category_id: await categoryId("rifles") },
      after: { category_id: shotguns },
    });
  });

  it("falls back to the plain list for an unsafe returnTo", async () => {
    const { response } = await post({
      intent: "category",
      productId: String(zebra500.id),
      categoryId: String(await categoryId("rifles")),
      returnTo: "//evil.example/admin/products",
    });
    expect(response?.headers.get("Location")).toBe("/admin/products");
  });

  it("answers bad ids and intents with 400, never 500, and changes nothing", async () => {
    const before = await db.selectFrom("products").select(["id", "category_id"]).orderBy("id").execute();
    const cases: Record<string, string>[] = [
      { intent: "category", productId: "abc", categoryId: "1" },
      { intent: "category", productId: String(zebra.id), categoryId: "abc" },
      { intent: "category", productId: String(zebra.id), categoryId: "999999" },
      { intent: "category", productId: "999999", categoryId: "1" },
      { intent: "category", productId: "1e3", categoryId: "1" },
      { intent: "delete", productId: "999999" },
      { intent: "delete", productId: "-1" },
      { intent: "delete" },
      { intent: "nope", productId: String(zebra.id) },
      {},
    ];
    for (const fields of cases) {
      const result = await post(fields);
      expect(result.status, JSON.stringify(fields)).toBe(400);
      expect(result.body?.ok).toBe(false);
    }
    const missing = await post({ intent: "delete", productId: "999999" });
    expect(missing.body?.message).toBe("Failed to delete product: Product not found");
    expect(await db.selectFrom("products").select(["id", "category_id"]).orderBy("id").execute()).toEqual(before);
  });

  it("refuses non-admins with 403 and changes nothing", async () => {
    const auditsBefore = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    for (const user of [CUSTOMER, null]) {
      const change = await post(
        { intent: "category", productId: String(zebra.id), categoryId: String(await categoryId("pistols")) },
        user,
      );
      expect(change.response?.status).toBe(403);
      const remove = await post({ intent: "delete", productId: String(zebra.id) }, user);
      expect(remove.response?.status).toBe(403);
    }
    const row = await db.selectFrom("products").select("category_id").where("id", "=", zebra.id).executeTakeFirst();
    expect(row?.category_id).toBe(await categoryId("rifles"));
    const auditsAfter = await db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(auditsAfter.n).toBe(auditsBefore.n);
  });

  it("deletes a product: variants and images go, orders keep their lines, files go after the row", async () => {
    const target = await addProduct({
      en: "Doomed Test Rifle",
      zh: "待刪測試步槍",
      category: "rifles",
      // 7: the order below takes 2, leaving the 5 the audit entry records.
      variants: [{ color: "Black", stock: 7 }],
      images: 3,
    });
    const [shownOnOrder, ...others] = target.imageKeys;
    // A customer's order of 2 (HK$1,234 each) through the real placeOrder: its line shows the first image.
    const customer = await findUserById(db, CUSTOMER.id);
    const { order: placed } = await placeTestOrder(db, {
      user: customer,
      lines: [{ productId: target.id, color: "Black", quantity: 2 }],
    });
    const orderId = placed.id;

    const { response, flash } = await post({
      intent: "delete",
      productId: String(target.id),
      returnTo: `/admin/products?q=doomed&delete=${target.id}`,
    });
    expect(response?.status).toBe(302);
    expect(response?.headers.get("Location")).toBe("/admin/products?q=doomed");
    expect(flash).toEqual({ type: "success", key: "adminProducts.deleted" });

    expect(await db.selectFrom("products").select("id").where("id", "=", target.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("product_variants").select("id").where("product_id", "=", target.id).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom("product_images").select("id").where("product_id", "=", target.id).execute()).toEqual(
      [],
    );
    // The order and its snapshotted line stay; only the link to the product is cleared.
    const order = await db.selectFrom("orders").select("id").where("id", "=", orderId).executeTakeFirst();
    expect(order?.id).toBe(orderId);
    const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", orderId).execute();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      product_id: null,
      name_en: "Doomed Test Rifle",
      quantity: 2,
      line_total_cents: 246_800,
      image_path: shownOnOrder,
    });
    // Files: the one the order shows is kept, the others are removed.
    expect(await storage.exists("public", shownOnOrder as string)).toBe(true);
    for (const key of others) expect(await storage.exists("public", key)).toBe(false);

    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "product.deleted")
      .where("entity_id", "=", String(target.id))
      .executeTakeFirstOrThrow();
    const details = JSON.parse(audit.details ?? "{}");
    expect(details.before).toMatchObject({
      id: target.id,
      name_en: "Doomed Test Rifle",
      variants: [{ color: "Black", stock: 5 }],
      images: target.imageKeys,
    });
    expect(details.after).toBeNull();
  });

  it("removes every image file of a product no order shows", async () => {
    const target = await addProduct({
      en: "Unsold Test Pistol",
      zh: "未售測試手槍",
      category: "pistols",
      variants: [{ color: "Black", stock: 1 }],
      images: 2,
    });
    const result = await deleteProduct(db, storage, ADMIN, target.id);
    expect(result.removedFiles.sort()).toEqual([...target.imageKeys].sort());
    for (const key of target.imageKeys) expect(await storage.exists("public", key)).toBe(false);
  });

  it("reports no change when the category is already the product's", async () => {
    expect(await updateProductCategory(db, ADMIN, zebra.id, await categoryId("rifles"))).toEqual({ changed: false });
  });
});
