import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import sharp from "sharp";
import { derivativeKeys } from "../../app/lib/image-sizes";
import { IMAGE_PRESETS, putWithDerivatives } from "../../app/lib/images.server";
import { generateKey, type Storage } from "../../app/lib/storage.server";
import { DEMO_HERO_IMAGE_KEY, HERO_IMAGE_KEY } from "../../app/models/settings/site-settings.server";
import { type DB, now } from "../connect.server";
import { lockTable } from "../dialect";
import { SEED_BRANDS, SEED_PRODUCT_BRANDS } from "./brands";
import {
  SEED_BANK_ACCOUNT,
  SEED_BLOG_POSTS,
  SEED_CATEGORIES,
  SEED_COLOUR_ZH,
  SEED_PRODUCTS,
  type SeedProduct,
} from "./catalogue";

/** The settings holding the home hero image and the demo's own hero ("Remove demo data" resets the one to the other). */
export const HERO_SETTING_KEY = HERO_IMAGE_KEY;
export const DEMO_HERO_SETTING_KEY = DEMO_HERO_IMAGE_KEY;

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
/** How many images are encoded at once (sharp runs them on the libuv thread pool). */
const RENDER_CONCURRENCY = 6;

/** True when there is no catalogue yet: no categories and no products. */
/** seedDemo found a catalogue (another process seeded the database first). */
export class AlreadySeededError extends Error {
  constructor() {
    super("seedDemo: the database already has categories or products; refusing to seed over them");
  }
}

export async function isDatabaseEmpty(db: DB): Promise<boolean> {
  const [category, product] = await Promise.all([
    db.selectFrom("categories").select("id").limit(1).executeTakeFirst(),
    db.selectFrom("products").select("id").limit(1).executeTakeFirst(),
  ]);
  return !category && !product;
}

type Artwork = typeof import("../../demo/artwork.server");

/** Where the demo's drawings live: `demo/` at the project root, beside `db/` and the build folder. */
const ARTWORK_FILE = path.join("demo", "artwork.server.ts");

/**
 * The demo artwork (1,750 lines of SVG drawing) is demo content, not part of the data layer or
 * the production bundle: it is imported from its source file, only when the demo catalogue is
 * seeded. The project root is found by walking up from this module, which is `db/seed/` in the
 * source (tests, dev) and the build's `server/` folder in production; Node runs the TypeScript
 * file by stripping its types.
 */
async function loadArtwork(): Promise<Artwork> {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, ARTWORK_FILE);
    if (existsSync(file)) return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Artwork;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`seedDemo: the demo artwork (${ARTWORK_FILE}) is missing from this install`);
    dir = parent;
  }
}

interface PendingFile {
  key: string;
  render: () => Promise<Buffer>;
  /** A listing image: stored with its smaller copies, under a name that records its width (decision 031). */
  sized?: boolean;
}

interface ProductPlan {
  product: SeedProduct;
  createdAt: string;
  imageKeys: string[];
}

/**
 * Fills an empty database with the demo catalogue: categories with tiles, products with colour
 * variants and studio shots, blog posts, the primary bank account and the hero image setting.
 * Images are rendered and stored first, then every row is inserted in one transaction; if that
 * fails, the stored images are removed again. Refuses to run on a database that has a catalogue.
 */
export async function seedDemo(db: DB, storage: Storage): Promise<{ categories: number; products: number }> {
  if (!(await isDatabaseEmpty(db))) throw new AlreadySeededError();
  const { renderBlogImage, renderCategoryImage, renderHeroImage, renderProductImage } = await loadArtwork();
  const clock = Date.now();
  const at = (daysAgo: number, minutesEarlier = 0) =>
    now(new Date(clock - daysAgo * DAY_MS - minutesEarlier * MINUTE_MS));
  const files: PendingFile[] = [];
  const plan = (folder: string, render: () => Promise<Buffer>, sized = false): string => {
    const key = generateKey(folder, "webp");
    files.push({ key, render, sized });
    return key;
  };
  /** The key each sized image was finally stored under (its width is known once it is drawn). */
  const storedAs = new Map<string, string>();

  const categoryKeys = SEED_CATEGORIES.map((category) => plan("categories", () => renderCategoryImage(category.slug)));
  const heroKey = plan("hero", () => renderHeroImage());
  const blogKeys = SEED_BLOG_POSTS.map((post) => {
    const scene = post.image;
    return scene ? plan("blog", () => renderBlogImage(scene)) : null;
  });
  // Oldest first, so product ids grow with created_at as they would in a real shop. A few minutes
  // apart within a day keeps "newest first" orderings stable.
  const products: ProductPlan[] = SEED_PRODUCTS.map((product, index) => ({
    product,
    createdAt: at(product.daysAgo, (index * 97) % 600),
    imageKeys: Array.from({ length: Math.min(5, Math.max(1, product.images)) }, (_, image) => {
      const color = product.variants[image % product.variants.length]?.color ?? "Default";
      return plan("products", () => renderProductImage(product.art, color, image), true);
    }),
  })).sort((a, b) => a.createdAt.localeCompare(b.createdAt));

  const stored: string[] = [];
  try {
    await forEachLimit(files, RENDER_CONCURRENCY, async (file) => {
      const data = await file.render();
      if (file.sized) {
        const { width = 0, height = 0 } = await sharp(data).metadata();
        const key = await putWithDerivatives(storage, file.key, { data, width, height }, IMAGE_PRESETS.product.quality);
        storedAs.set(file.key, key);
        stored.push(key, ...derivativeKeys(key));
        return;
      }
      await storage.put("public", file.key, data, "image/webp");
      stored.push(file.key);
    });

    await db.transaction().execute(async (trx) => {
      // Two processes starting on one empty database (two machines) seed it once: the table
      // lock makes the second wait, then find the catalogue and give up (its images removed).
      await lockTable(trx, "categories");
      if (!(await isDatabaseEmpty(trx))) throw new AlreadySeededError();
      const categoryIds = new Map<string, number>();
      const categoriesCreated = at(130);
      for (const [index, category] of SEED_CATEGORIES.entries()) {
        const row = await trx
          .insertInto("categories")
          .values({
            slug: category.slug,
            name_en: category.name_en,
            name_zh: category.name_zh,
            description_en: category.description_en,
            description_zh: category.description_zh,
            image_path: categoryKeys[index] ?? null,
            is_active: category.is_active,
            sort_order: category.sort_order,
            is_demo: 1,
            created_at: categoriesCreated,
            updated_at: categoriesCreated,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        categoryIds.set(category.slug, row.id);
      }

      const brandIds = new Map<string, number>();
      for (const brand of SEED_BRANDS) {
        const row = await trx
          .insertInto("brands")
          .values({ ...brand, is_demo: 1, created_at: categoriesCreated, updated_at: categoriesCreated })
          .returning("id")
          .executeTakeFirstOrThrow();
        brandIds.set(brand.slug, row.id);
      }

      const variants: {
        product_id: number;
        color: string;
        color_zh: string | null;
        stock: number;
        sort_order: number;
      }[] = [];
      const images: { product_id: number; path: string; sort_order: number }[] = [];
      for (const { product, createdAt, imageKeys } of products) {
        const row = await trx
          .insertInto("products")
          .values({
            category_id: categoryIds.get(product.category) ?? null,
            brand_id: brandIds.get(SEED_PRODUCT_BRANDS[product.name_en] ?? "") ?? null,
            name_en: product.name_en,
            name_zh: product.name_zh,
            description_en: product.description_en,
            description_zh: product.description_zh,
            price_hkd_cents: product.price_hkd_cents,
            price_gbp_cents: product.price_gbp_cents,
            price_eur_cents: product.price_eur_cents,
            price_usd_cents: product.price_usd_cents,
            is_featured: product.is_featured,
            is_demo: 1,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        product.variants.forEach((variant, sort_order) => {
          variants.push({
            product_id: row.id,
            color: variant.color,
            color_zh: SEED_COLOUR_ZH[variant.color] ?? null,
            stock: variant.stock,
            sort_order,
          });
        });
        imageKeys.forEach((path, sort_order) => {
          images.push({ product_id: row.id, path: storedAs.get(path) ?? path, sort_order });
        });
      }
      await trx.insertInto("product_variants").values(variants).execute();
      await trx.insertInto("product_images").values(images).execute();

      for (const [index, post] of SEED_BLOG_POSTS.entries()) {
        const publishedAt = post.published ? at(post.daysAgo, 9 * 60) : null;
        const createdAt = at(post.daysAgo + 2);
        await trx
          .insertInto("blog_posts")
          .values({
            title_en: post.title_en,
            title_zh: post.title_zh,
            content_en: post.content_en,
            content_zh: post.content_zh,
            author: post.author,
            image_path: blogKeys[index] ?? null,
            published: post.published,
            published_at: publishedAt,
            is_demo: 1,
            created_at: createdAt,
            updated_at: publishedAt ?? at(0, 30),
          })
          .execute();
      }

      const accountCreated = at(125);
      await trx
        .insertInto("bank_accounts")
        .values({ ...SEED_BANK_ACCOUNT, is_demo: 1, created_at: accountCreated, updated_at: accountCreated })
        .execute();

      const settingTime = at(0);
      await trx
        .insertInto("site_settings")
        .values({ key: HERO_SETTING_KEY, value: heroKey, updated_at: settingTime })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: heroKey, updated_at: settingTime }))
        .execute();
      await trx
        .insertInto("site_settings")
        .values({ key: DEMO_HERO_SETTING_KEY, value: heroKey, updated_at: settingTime })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: heroKey, updated_at: settingTime }))
        .execute();
    });
  } catch (error) {
    await Promise.allSettled(stored.map((key) => storage.delete("public", key)));
    throw error;
  }

  return { categories: SEED_CATEGORIES.length, products: SEED_PRODUCTS.length };
}

/**
 * Runs `task` over `items` with at most `limit` in flight. After a failure no new task starts, and
 * it waits for the ones in flight before rejecting, so the caller can clean up everything stored.
 */
async function forEachLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
