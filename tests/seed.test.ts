import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp, { type Metadata } from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, migrateToLatest, openDatabase } from "#db/connect.server";
import { SEED_BRANDS, SEED_PRODUCT_BRANDS } from "#db/seed/brands";
import { CATEGORY_SLUGS, SEED_PRODUCTS } from "#db/seed/catalogue";
import { HERO_SETTING_KEY, isDatabaseEmpty, seedDemo } from "#db/seed/index.server";
import { MemoryStorage } from "~/lib/storage.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-test-"));
const file = path.join(dir, "shop.db");
const storage = new MemoryStorage();
let db: DB;
let emptyBefore: boolean;
let result: { categories: number; products: number };

beforeAll(async () => {
  db = openDatabase(`file:${file}`);
  await migrateToLatest(db);
  emptyBefore = await isDatabaseEmpty(db);
  result = await seedDemo(db, storage);
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function expectWebp(key: string): Promise<Metadata> {
  const stored = await storage.get("public", key);
  expect(stored, `stored file ${key}`).not.toBeNull();
  expect(stored?.contentType).toBe("image/webp");
  const meta = await sharp(stored?.data).metadata();
  expect(meta.format).toBe("webp");
  expect(meta.width).toBeGreaterThan(0);
  expect(meta.height).toBeGreaterThan(0);
  return meta;
}

describe("seedDemo", () => {
  it("reports an empty database before and a filled one after", async () => {
    expect(emptyBefore).toBe(true);
    expect(await isDatabaseEmpty(db)).toBe(false);
  });

  it("returns the counts it inserted", async () => {
    const products = await db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    expect(result.categories).toBe(10);
    expect(result.products).toBeGreaterThanOrEqual(40);
    expect(Number(products?.n)).toBe(result.products);
  });

  it("inserts the ten categories in order, the first five active", async () => {
    const rows = await db.selectFrom("categories").selectAll().orderBy("sort_order").execute();
    expect(rows.map((row) => row.slug)).toEqual([...CATEGORY_SLUGS]);
    expect(rows.map((row) => row.is_active)).toEqual([1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    expect(rows.slice(0, 5).map((row) => row.name_en)).toEqual([
      "Rifles",
      "Pistols",
      "Shotguns",
      "Accessories",
      "Tactical Gear",
    ]);
    for (const row of rows) {
      expect(row.name_zh).toMatch(/\p{Script=Han}/u);
      expect(row.description_en?.length).toBeGreaterThan(20);
      expect(row.description_zh?.length).toBeGreaterThan(5);
      expect(row.image_path).toMatch(/^categories\/[0-9a-f-]+\.webp$/);
      const meta = await expectWebp(row.image_path ?? "");
      expect([meta.width, meta.height]).toEqual([1200, 800]);
    }
  });

  it("gives every product 1 to 5 stored WebP images and at least one colour", async () => {
    const products = await db.selectFrom("products").select(["id", "category_id"]).execute();
    const images = await db.selectFrom("product_images").selectAll().orderBy("sort_order").execute();
    const variants = await db.selectFrom("product_variants").selectAll().execute();
    for (const product of products) {
      expect(product.category_id).not.toBeNull();
      const own = images.filter((image) => image.product_id === product.id);
      expect(own.length).toBeGreaterThanOrEqual(1);
      expect(own.length).toBeLessThanOrEqual(5);
      expect(own.map((image) => image.sort_order)).toEqual(own.map((_, index) => index));
      const colours = variants.filter((variant) => variant.product_id === product.id);
      expect(colours.length).toBeGreaterThanOrEqual(1);
      expect(colours.length).toBeLessThanOrEqual(4);
      for (const colour of colours) {
        expect(colour.stock).toBeGreaterThanOrEqual(0);
        expect(colour.stock).toBeLessThanOrEqual(40);
      }
    }
    await Promise.all(images.map((image) => expectWebp(image.path)));
    expect(new Set(images.map((image) => image.path)).size).toBe(images.length);
  });

  it("has sold-out products, featured products and varied creation dates", async () => {
    const totals = await db
      .selectFrom("product_variants")
      .select(["product_id", (eb) => eb.fn.sum<number>("stock").as("total")])
      .groupBy("product_id")
      .execute();
    expect(totals.filter((row) => Number(row.total) === 0).length).toBeGreaterThanOrEqual(3);
    const products = await db.selectFrom("products").select(["is_featured", "created_at"]).execute();
    const featured = products.filter((row) => row.is_featured === 1).length;
    expect(featured).toBeGreaterThanOrEqual(4);
    expect(featured).toBeLessThanOrEqual(6);
    expect(new Set(products.map((row) => row.created_at.slice(0, 10))).size).toBeGreaterThan(20);
  });

  it("prices every product in all four currencies across every HKD filter band", async () => {
    const products = await db.selectFrom("products").selectAll().execute();
    for (const product of products) {
      for (const cents of [
        product.price_hkd_cents,
        product.price_gbp_cents,
        product.price_eur_cents,
        product.price_usd_cents,
      ]) {
        expect(Number.isInteger(cents)).toBe(true);
        expect(cents).toBeGreaterThan(0);
      }
      // The foreign prices follow the HKD price (roughly HKD / 10, / 8.5, / 7.8).
      expect(product.price_gbp_cents).toBeLessThan(product.price_hkd_cents);
      expect(product.price_gbp_cents).toBeLessThan(product.price_eur_cents);
      expect(product.price_eur_cents).toBeLessThanOrEqual(product.price_usd_cents);
    }
    const hkd = products.map((product) => product.price_hkd_cents);
    expect(hkd.some((cents) => cents < 40_000)).toBe(true);
    expect(hkd.some((cents) => cents >= 40_000 && cents <= 80_000)).toBe(true);
    expect(hkd.some((cents) => cents > 80_000 && cents <= 160_000)).toBe(true);
    expect(hkd.some((cents) => cents > 160_000)).toBe(true);
  });

  it("writes three blog posts, exactly one of them a draft, two with images", async () => {
    const posts = await db.selectFrom("blog_posts").selectAll().execute();
    expect(posts).toHaveLength(3);
    expect(posts.filter((post) => post.published === 0)).toHaveLength(1);
    for (const post of posts) {
      expect(post.published_at === null).toBe(post.published === 0);
      expect(post.content_en.split("\n\n").length).toBeGreaterThanOrEqual(2);
      expect(post.content_zh).toMatch(/\p{Script=Han}/u);
    }
    const withImages = posts.filter((post) => post.image_path !== null);
    expect(withImages).toHaveLength(2);
    for (const post of withImages) await expectWebp(post.image_path ?? "");
  });

  it("adds one primary bank account with an FPS id", async () => {
    const accounts = await db.selectFrom("bank_accounts").selectAll().execute();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]?.is_primary).toBe(1);
    expect(accounts[0]?.account_holder).toBe("Harbour Tactical Limited");
    expect(accounts[0]?.fps_id).toMatch(/^\d{7,9}$/);
  });

  it("points the hero setting at a stored 2400x1000 image", async () => {
    const setting = await db
      .selectFrom("site_settings")
      .select("value")
      .where("key", "=", HERO_SETTING_KEY)
      .executeTakeFirstOrThrow();
    expect(setting.value).toMatch(/^hero\/[0-9a-f-]+\.webp$/);
    const meta = await expectWebp(setting.value);
    expect([meta.width, meta.height]).toEqual([2400, 1000]);
  });

  it("stores exactly the files the rows point at", async () => {
    const images = SEED_PRODUCTS.reduce((sum, product) => sum + product.images, 0);
    // Each 800-pixel product image has its 400 copy (decision 031).
    expect(storage.files.size).toBe(images * 2 + 10 + 1 + 2);
  });

  it("adds the demo brands, marked demo, each on the products the brand list names (docs/decisions/052)", async () => {
    const brands = await db.selectFrom("brands").select(["id", "slug", "is_demo"]).orderBy("sort_order").execute();
    expect(brands.map((brand) => [brand.slug, brand.is_demo])).toEqual(SEED_BRANDS.map((brand) => [brand.slug, 1]));
    const branded = await db
      .selectFrom("products")
      .innerJoin("brands", "brands.id", "products.brand_id")
      .select(["products.name_en", "brands.slug"])
      .execute();
    expect(Object.fromEntries(branded.map((row) => [row.name_en, row.slug]))).toEqual(SEED_PRODUCT_BRANDS);
  });

  it("refuses to seed a database that already has a catalogue", async () => {
    const before = storage.files.size;
    await expect(seedDemo(db, storage)).rejects.toThrow(/already has/);
    expect(storage.files.size).toBe(before);
  });
});
