import crypto from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { type DB, now } from "#db/connect.server";
import { DEMO_HERO_SETTING_KEY, HERO_SETTING_KEY } from "#db/seed/index.server";
import type { MemoryStorage } from "~/lib/storage.server";
import { removeDemoData, summarizeDemoData } from "~/models/demo-data.server";
import { findPaymentAccount } from "~/models/payment-accounts.server";
import { updateProductCategory } from "~/models/products/admin-list.server";
import { DEFAULT_SHOP, heroTexts, loadShop, SHOP_DETAILS_KEY, shopIdentity } from "~/models/settings/shop.server";
import { DEMO_HERO_IMAGE_KEY, HERO_IMAGE_KEY } from "~/models/settings/site-settings.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as demoAction, loader as demoLoader } from "~/routes/admin/demo-data";
import { createCustomer } from "./factories";
import { createTestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/**
 * "Remove demo data" on a real, migrated SQLite file: exactly the rows marked is_demo go, with
 * their image files after the commit; orders, and everything of the owner's, stay.
 */

const IMAGE = Buffer.from("image");

async function putFile(storage: MemoryStorage, key: string) {
  await storage.put("public", key, IMAGE, "image/webp");
  return key;
}

function has(storage: MemoryStorage, key: string) {
  return storage.files.has(`public/${key}`);
}

async function setting(db: DB, key: string, value: string) {
  await db
    .insertInto("site_settings")
    .values({ key, value, updated_at: now() })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}

async function category(db: DB, slug: string, isDemo: 0 | 1, imagePath: string | null) {
  const at = now();
  const row = await db
    .insertInto("categories")
    .values({
      slug,
      name_en: `Category ${slug}`,
      name_zh: `分類 ${slug}`,
      image_path: imagePath,
      is_demo: isDemo,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function product(db: DB, name: string, categoryId: number | null, isDemo: 0 | 1, images: string[]) {
  const at = now();
  const row = await db
    .insertInto("products")
    .values({
      category_id: categoryId,
      name_en: name,
      name_zh: `${name}（中）`,
      description_en: "",
      description_zh: "",
      price_hkd_cents: 100_00,
      price_gbp_cents: 10_00,
      price_eur_cents: 11_00,
      price_usd_cents: 12_00,
      is_demo: isDemo,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("product_variants")
    .values([{ product_id: row.id, color: "Black", stock: 5, sort_order: 0 }])
    .execute();
  if (images.length > 0) {
    await db
      .insertInto("product_images")
      .values(images.map((path, sort_order) => ({ product_id: row.id, path, sort_order })))
      .execute();
  }
  return row.id;
}

async function bankAccount(db: DB, number: string, isDemo: 0 | 1, isPrimary: 0 | 1, createdAt = now()) {
  const row = await db
    .insertInto("bank_accounts")
    .values({
      bank_name: "Bank",
      account_holder: "Holder",
      account_number: number,
      fps_id: "1234567",
      swift_code: "HSBCHKHHHKH",
      is_primary: isPrimary,
      is_demo: isDemo,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function blogPost(db: DB, title: string, isDemo: 0 | 1, imagePath: string | null) {
  const at = now();
  await db
    .insertInto("blog_posts")
    .values({
      title_en: title,
      title_zh: title,
      content_en: "Text",
      content_zh: "文字",
      author: "Shop",
      image_path: imagePath,
      published: 1,
      published_at: at,
      is_demo: isDemo,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** A seeded shop that the owner has started to make their own, with a real order of a demo product. */
async function shopWithDemo(options: { ownHero?: boolean } = {}) {
  const svc = await createTestServices();
  const { db, storage } = svc;
  const files = {
    demoCategory: await putFile(storage, "categories/demo-rifles.webp"),
    sharedCategory: await putFile(storage, "categories/demo-gear.webp"),
    demoProduct: await putFile(storage, "products/demo-m4.webp"),
    demoProductOrdered: await putFile(storage, "products/demo-m4-ordered.webp"),
    demoPost: await putFile(storage, "blog/demo-post.webp"),
    demoHero: await putFile(storage, "hero/demo-hero.webp"),
    ownProduct: await putFile(storage, "products/own.webp"),
    ownHero: await putFile(storage, "hero/own-hero.webp"),
  };
  const demoCategory = await category(db, "rifles", 1, files.demoCategory);
  const sharedCategory = await category(db, "tactical-gear", 1, files.sharedCategory);
  const ownCategory = await category(db, "owners", 0, null);
  const demoProduct = await product(db, "Demo M4", demoCategory, 1, [files.demoProduct, files.demoProductOrdered]);
  await product(db, "Demo Vest", sharedCategory, 1, []);
  const ownInDemoCategory = await product(db, "Own vest", sharedCategory, 0, [files.ownProduct]);
  const ownProduct = await product(db, "Own rifle", ownCategory, 0, []);
  await blogPost(db, "Demo post", 1, files.demoPost);
  await blogPost(db, "Own post", 0, null);
  await bankAccount(db, "848-302915-838", 1, 1, "2026-01-01T00:00:00.000Z");
  const ownAccount = await bankAccount(db, "111-222333-444", 0, 0, "2026-02-01T00:00:00.000Z");
  await setting(db, DEMO_HERO_IMAGE_KEY, files.demoHero);
  await setting(db, HERO_IMAGE_KEY, options.ownHero ? files.ownHero : files.demoHero);

  // A customer with a demo product in their cart, and an order of it.
  const at = now();
  const userId = crypto.randomUUID();
  await db
    .insertInto("users")
    .values({ id: userId, email: `${userId}@example.com`, password_hash: "x", created_at: at, updated_at: at })
    .execute();
  const cartId = crypto.randomUUID();
  await db.insertInto("carts").values({ id: cartId, user_id: userId, created_at: at, updated_at: at }).execute();
  await db
    .insertInto("cart_lines")
    .values([
      { cart_id: cartId, product_id: demoProduct, color: "Black", quantity: 1, created_at: at },
      { cart_id: cartId, product_id: ownProduct, color: "Black", quantity: 2, created_at: at },
    ])
    .execute();
  const orderId = crypto.randomUUID();
  await db
    .insertInto("orders")
    .values({
      id: orderId,
      order_number: "ORD-1-AAAAAA",
      user_id: userId,
      status: "paid",
      currency: "HKD",
      locale: "en",
      subtotal_cents: 100_00,
      shipping_cents: 0,
      total_cents: 100_00,
      first_name: "Chan",
      last_name: "Tai Man",
      email: "chan@example.com",
      address: "1 Nathan Road",
      city: "Kowloon",
      country: "Hong Kong",
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto("order_lines")
    .values({
      order_id: orderId,
      product_id: demoProduct,
      name_en: "Demo M4",
      name_zh: "示範 M4",
      color: "Black",
      image_path: files.demoProductOrdered,
      unit_price_cents: 100_00,
      quantity: 1,
      line_total_cents: 100_00,
    })
    .execute();
  return {
    svc,
    db,
    storage,
    files,
    ids: { sharedCategory, ownCategory, ownInDemoCategory, ownProduct, orderId, ownAccount },
  };
}

async function names(db: DB, table: "products" | "blog_posts") {
  if (table === "products")
    return (await db.selectFrom("products").select("name_en").orderBy("id").execute()).map((r) => r.name_en);
  return (await db.selectFrom("blog_posts").select("title_en").orderBy("id").execute()).map((r) => r.title_en);
}

describe("removeDemoData", () => {
  it("uses the setting keys the seed writes", () => {
    expect(DEMO_HERO_IMAGE_KEY).toBe(DEMO_HERO_SETTING_KEY);
    expect(HERO_IMAGE_KEY).toBe(HERO_SETTING_KEY);
  });

  it("says what it will remove: demo rows, a demo category holding the owner's product kept", async () => {
    const { db } = await shopWithDemo();
    const summary = await summarizeDemoData(db);
    expect(summary).toMatchObject({
      products: 2,
      categories: 1,
      blogPosts: 1,
      bankAccounts: 1,
      ownBankAccounts: 1,
      demoHero: true,
    });
    expect(summary.keptCategories.map((c) => c.name_en)).toEqual(["Category tactical-gear"]);
  });

  it("removes exactly the demo rows and files, and keeps orders and the owner's rows", async () => {
    const { db, storage, files, ids } = await shopWithDemo();
    const removed = await removeDemoData(db, storage, { actorUserId: null });
    expect(removed).toMatchObject({ products: 2, categories: 1, blogPosts: 1, bankAccounts: 1, demoHero: true });

    expect(await names(db, "products")).toEqual(["Own vest", "Own rifle"]);
    expect(await names(db, "blog_posts")).toEqual(["Own post"]);
    const categories = await db.selectFrom("categories").select(["id", "slug", "is_demo"]).orderBy("id").execute();
    // The demo category that holds the owner's vest stays, no longer demo.
    expect(categories).toEqual([
      { id: ids.sharedCategory, slug: "tactical-gear", is_demo: 0 },
      { id: ids.ownCategory, slug: "owners", is_demo: 0 },
    ]);
    const variants = await db.selectFrom("product_variants").select("product_id").orderBy("product_id").execute();
    expect(variants.map((v) => v.product_id)).toEqual([ids.ownInDemoCategory, ids.ownProduct]);
    const images = await db.selectFrom("product_images").select("path").execute();
    expect(images.map((i) => i.path)).toEqual([files.ownProduct]);
    const cart = await db.selectFrom("cart_lines").select(["product_id", "quantity"]).execute();
    expect(cart).toEqual([{ product_id: ids.ownProduct, quantity: 2 }]);

    // The order and its line's snapshot are untouched (only the link to the gone product is cleared).
    const order = await db
      .selectFrom("orders")
      .select(["status", "total_cents"])
      .where("id", "=", ids.orderId)
      .executeTakeFirst();
    expect(order).toEqual({ status: "paid", total_cents: 100_00 });
    const line = await db
      .selectFrom("order_lines")
      .selectAll()
      .where("order_id", "=", ids.orderId)
      .executeTakeFirstOrThrow();
    expect(line).toMatchObject({
      product_id: null,
      name_en: "Demo M4",
      image_path: files.demoProductOrdered,
      unit_price_cents: 100_00,
    });

    // The owner's account is now the one shoppers pay into.
    const accounts = await db.selectFrom("bank_accounts").select(["id", "is_primary", "is_demo"]).execute();
    expect(accounts).toEqual([{ id: ids.ownAccount, is_primary: 1, is_demo: 0 }]);
    expect((await findPaymentAccount(db))?.id).toBe(ids.ownAccount);

    // The hero was still the demo one: back to the default.
    const settings = await db.selectFrom("site_settings").select("key").execute();
    expect(settings.map((s) => s.key)).not.toContain(HERO_IMAGE_KEY);
    expect(settings.map((s) => s.key)).not.toContain(DEMO_HERO_IMAGE_KEY);

    // Files: the demo ones are gone; the owner's, the kept category's and the ordered image stay.
    for (const key of [files.demoCategory, files.demoProduct, files.demoPost, files.demoHero])
      expect(has(storage, key), key).toBe(false);
    for (const key of [files.ownProduct, files.ownHero, files.sharedCategory, files.demoProductOrdered])
      expect(has(storage, key), key).toBe(true);

    const audit = await db.selectFrom("audit_log").selectAll().where("action", "=", "demo_data.removed").execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details ?? "{}")).toMatchObject({
      before: { products: 2, categories: 1, blog_posts: 1, bank_accounts: 1, hero_reset: true },
      after: { kept_categories: [ids.sharedCategory], primary_account_id: ids.ownAccount },
    });
  });

  it("removes nothing on a second run", async () => {
    const { db, storage } = await shopWithDemo();
    await removeDemoData(db, storage, { actorUserId: null });
    const filesBefore = [...storage.files.keys()];
    const second = await removeDemoData(db, storage, { actorUserId: null });
    expect(second).toMatchObject({
      products: 0,
      categories: 0,
      keptCategories: [],
      blogPosts: 0,
      bankAccounts: 0,
      demoHero: false,
      deletedFiles: 0,
    });
    expect([...storage.files.keys()]).toEqual(filesBefore);
    expect(await names(db, "products")).toEqual(["Own vest", "Own rifle"]);
    const audit = await db.selectFrom("audit_log").select("id").where("action", "=", "demo_data.removed").execute();
    expect(audit).toHaveLength(1);
  });

  it("keeps the owner's hero image", async () => {
    const { db, storage, files } = await shopWithDemo({ ownHero: true });
    expect((await summarizeDemoData(db)).demoHero).toBe(false);
    const removed = await removeDemoData(db, storage, { actorUserId: null });
    expect(removed.demoHero).toBe(false);
    const hero = await db
      .selectFrom("site_settings")
      .select("value")
      .where("key", "=", HERO_IMAGE_KEY)
      .executeTakeFirst();
    expect(hero?.value).toBe(files.ownHero);
    expect(has(storage, files.ownHero)).toBe(true);
  });

  it("leaves a shop with no account when the demo one was its only account", async () => {
    const { db, storage } = await createTestServices();
    await bankAccount(db, "848-302915-838", 1, 1);
    expect(await summarizeDemoData(db)).toMatchObject({ bankAccounts: 1, ownBankAccounts: 0 });
    await removeDemoData(db, storage, { actorUserId: null });
    expect(await findPaymentAccount(db)).toBeUndefined();
  });
});

/** The seed's day: demo rows are written with created_at = updated_at (db/seed). */
const SEEDED = "2026-01-01T00:00:00.000Z";

/**
 * Demo rows as the seed leaves them, days ago: created and last updated at the same moment
 * (created_at is never updated by the app, its type forbids it: only a test backdates a row).
 */
async function asSeeded(db: DB) {
  await sql`update products set created_at = ${SEEDED}, updated_at = ${SEEDED} where is_demo = 1`.execute(db);
}

async function productRow(db: DB, id: number) {
  return db.selectFrom("products").select(["id", "is_demo", "name_en"]).where("id", "=", id).executeTakeFirst();
}

describe("demo products the owner has edited", () => {
  /** Two demo categories with three demo products; the owner moves two of them (a real edit). */
  async function shopWithEdits() {
    const svc = await createTestServices();
    const { db, storage } = svc;
    const m4Image = await putFile(storage, "products/demo-m4.webp");
    const rifles = await category(db, "rifles", 1, null);
    const pistols = await category(db, "pistols", 1, null);
    const m4 = await product(db, "Demo M4", rifles, 1, [m4Image]);
    const vest = await product(db, "Demo Vest", rifles, 1, []);
    const glock = await product(db, "Demo Glock", pistols, 1, []);
    await asSeeded(db);
    const owner = await createCustomer(db);
    await updateProductCategory(db, owner, glock, rifles);
    await updateProductCategory(db, owner, m4, pistols);
    return { svc, db, storage, m4Image, ids: { rifles, pistols, m4, vest, glock } };
  }

  it("lists them (most recently edited first) apart from the demo products that go", async () => {
    const { db, ids } = await shopWithEdits();
    const summary = await summarizeDemoData(db);
    expect(summary.products).toBe(1);
    expect(summary.editedProducts.map((p) => p.id)).toEqual([ids.m4, ids.glock]);
    expect((summary.editedProducts[0]?.updated_at ?? "") > SEEDED).toBe(true);
    // Both categories hold a product kept by default: they stay.
    expect(summary.keptCategories.map((c) => c.id).sort()).toEqual([ids.rifles, ids.pistols].sort());
    expect(summary.categories).toBe(0);
  });

  it("keeps every edited one as the owner's unless told to remove it; the unedited ones go", async () => {
    const { db, storage, m4Image, ids } = await shopWithEdits();
    const removed = await removeDemoData(db, storage, { actorUserId: null, removeEdited: [ids.glock] });
    expect(removed).toMatchObject({ products: 2, keptProducts: 1, categories: 1 });
    expect(await productRow(db, ids.m4)).toEqual({ id: ids.m4, is_demo: 0, name_en: "Demo M4" });
    expect(await productRow(db, ids.vest)).toBeUndefined();
    expect(await productRow(db, ids.glock)).toBeUndefined();
    // The kept product's category stays as the owner's; its image file stays.
    const categories = await db.selectFrom("categories").select(["id", "is_demo"]).execute();
    expect(categories).toEqual([{ id: ids.pistols, is_demo: 0 }]);
    expect(has(storage, m4Image)).toBe(true);
    const audit = await db
      .selectFrom("audit_log")
      .select("details")
      .where("action", "=", "demo_data.removed")
      .execute();
    expect(JSON.parse(audit[0]?.details ?? "{}").after.kept_products).toEqual([ids.m4]);
    // Kept products are no longer demo data: nothing is left to remove.
    expect(await summarizeDemoData(db)).toMatchObject({ products: 0, editedProducts: [] });
  });

  it("through the screen: lists them with the date, keeps the ticked ones, removes the unticked", async () => {
    const { svc, db, ids } = await shopWithEdits();
    const account = await createCustomer(db);
    const owner: CurrentUser = { id: account.id, email: account.email, isAdmin: true, role: "owner" };
    const page = await runRoute(svc, demoLoader, new Request("http://localhost/admin/demo-data"), owner);
    const listed = (page.result as { summary: { editedProducts: { id: number; name: string; edited: string }[] } })
      .summary.editedProducts;
    expect(listed.map((p) => p.name)).toEqual(["Demo M4", "Demo Glock"]);
    expect(listed[0]?.edited).toMatch(/\d{4}/);

    // The form as posted: both listed, only the M4 still ticked.
    const body = formOf({
      intent: "remove",
      confirmed: "1",
      "edited[]": [String(ids.m4), String(ids.glock)],
      "keep[]": [String(ids.m4)],
    });
    const posted = await runRoute(
      svc,
      demoAction,
      new Request("http://localhost/admin/demo-data", { method: "POST", body }),
      owner,
    );
    expect((posted.result as Response).headers.get("Location")).toBe("/admin");
    expect(posted.flash).toMatchObject({ key: "adminDemoData.removed", detailKey: "adminDemoData.removedDetailKept" });
    expect((await productRow(db, ids.m4))?.is_demo).toBe(0);
    expect(await productRow(db, ids.glock)).toBeUndefined();
  });

  it("keeps them all when the post names none (the defaults, or an older page)", async () => {
    const { db, storage, ids } = await shopWithEdits();
    await removeDemoData(db, storage, { actorUserId: null });
    expect((await productRow(db, ids.m4))?.is_demo).toBe(0);
    expect((await productRow(db, ids.glock))?.is_demo).toBe(0);
    expect(await productRow(db, ids.vest)).toBeUndefined();
  });
});

describe("the demo's home and footer texts", () => {
  it("are emptied by the removal where still the demo's, and the storefront falls back", async () => {
    const { db, storage } = await createTestServices();
    // The owner wrote an English headline and set the shop's name; everything else is the default.
    await setting(
      db,
      SHOP_DETAILS_KEY,
      JSON.stringify({
        name: { en: "Lion Rock Airsoft", zh: "獅子山氣槍" },
        heroTitle: { en: "Lion Rock", zh: DEFAULT_SHOP.heroTitle.zh },
      }),
    );
    expect((await summarizeDemoData(db)).demoTexts).toBe(true);
    const removed = await removeDemoData(db, storage, { actorUserId: null });
    expect(removed.demoTexts).toBe(true);

    const shop = await loadShop(db);
    expect(shop.heroTitle).toEqual({ en: "Lion Rock", zh: "" });
    expect(shop.heroText).toEqual({ en: "", zh: "" });
    expect(shop.footerText).toEqual({ en: "", zh: "" });
    expect(heroTexts(shop, "en")).toEqual({ title: "Lion Rock", text: "" });
    // Chinese: the owner's English headline rather than nothing; no subtitle, no footer text.
    expect(heroTexts(shop, "zh")).toEqual({ title: "Lion Rock", text: "" });
    expect(shopIdentity(shop, "zh").blurb).toBe("");
    // Only the three texts were written: what the owner never set (shipping, rates) still follows its default.
    const stored = JSON.parse(
      (
        await db
          .selectFrom("site_settings")
          .select("value")
          .where("key", "=", SHOP_DETAILS_KEY)
          .executeTakeFirstOrThrow()
      ).value,
    );
    expect(Object.keys(stored).sort()).toEqual(["footerText", "heroText", "heroTitle", "name"]);
    expect((await summarizeDemoData(db)).demoTexts).toBe(false);

    // With no headline at all, the home page's heading is the shop's name.
    await setting(db, SHOP_DETAILS_KEY, JSON.stringify({ ...stored, heroTitle: { en: "", zh: "" } }));
    expect(heroTexts(await loadShop(db), "zh").title).toBe("獅子山氣槍");
  });
});
