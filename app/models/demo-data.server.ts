import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Database } from "#db/schema";
import { removeFilesQuietly, type Storage } from "~/lib/storage.server";
import { auditAction } from "./audit.server";
import { DEMO_HERO_IMAGE_KEY, deleteSetting, getSetting, HERO_IMAGE_KEY } from "./settings/site-settings.server";

/**
 * The demo content the shop is seeded with (rows with is_demo = 1: products, categories, blog
 * posts, the bank account, and the hero image kept under DEMO_HERO_IMAGE_KEY), and its removal
 * in one step before the shop goes live. Orders are never touched: their lines keep the names,
 * colours, prices and image they were placed with.
 */

export interface DemoDataSummary {
  products: number;
  /** Demo categories that go (they hold no product of the owner's). */
  categories: number;
  /** Demo categories that stay, unmarked, because they hold a product of the owner's. */
  keptCategories: { id: number; name_en: string; name_zh: string }[];
  blogPosts: number;
  bankAccounts: number;
  /** Bank accounts of the owner's (not demo): none means shoppers cannot pay once the demo one goes. */
  ownBankAccounts: number;
  /** The home page still shows the demo hero image (it goes back to the default). */
  demoHero: boolean;
}

export interface DemoDataRemoval extends DemoDataSummary {
  /** Storage keys deleted after the commit (best effort). */
  deletedFiles: number;
}

type Reader = DB | Transaction<Database>;

/** How many rows of `table` are demo content (or, with `isDemo` 0, are the owner's). */
async function countDemo(
  db: Reader,
  table: "products" | "categories" | "blog_posts" | "bank_accounts",
  isDemo: 0 | 1 = 1,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("is_demo", "=", isDemo)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Demo categories holding a product that is not demo content: they are kept. */
function keptCategoriesQuery(db: Reader) {
  return db
    .selectFrom("categories")
    .select(["id", "name_en", "name_zh"])
    .where("is_demo", "=", 1)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("products")
          .select("products.id")
          .whereRef("products.category_id", "=", "categories.id")
          .where("products.is_demo", "=", 0),
      ),
    )
    .orderBy("sort_order")
    .orderBy("id");
}

/** What "Remove demo data" would remove now. */
export async function summarizeDemoData(db: Reader): Promise<DemoDataSummary> {
  const [products, demoCategories, keptCategories, blogPosts, bankAccounts, ownBankAccounts, hero, demoHero] =
    await Promise.all([
      countDemo(db, "products"),
      countDemo(db, "categories"),
      keptCategoriesQuery(db).execute(),
      countDemo(db, "blog_posts"),
      countDemo(db, "bank_accounts"),
      countDemo(db, "bank_accounts", 0),
      getSetting(db, HERO_IMAGE_KEY),
      getSetting(db, DEMO_HERO_IMAGE_KEY),
    ]);
  return {
    products,
    categories: demoCategories - keptCategories.length,
    keptCategories,
    blogPosts,
    bankAccounts,
    ownBankAccounts,
    demoHero: hero !== null && hero === demoHero,
  };
}

/** True when nothing of the demo is left to remove. */
export function isDemoDataEmpty(summary: DemoDataSummary): boolean {
  return (
    summary.products + summary.categories + summary.keptCategories.length + summary.blogPosts + summary.bankAccounts ===
      0 && !summary.demoHero
  );
}

/**
 * Removes the demo content in one transaction: demo products with their colours, image rows and
 * cart lines (order lines keep their snapshot and lose only the link to the product), demo blog
 * posts, the demo bank account (when it was primary, the newest remaining account becomes
 * primary), and demo categories, except one that now holds a product of the owner's: that one is
 * kept and no longer marked as demo. The home page's hero goes back to the default while it is
 * still the demo image. Audited with the counts. The image files go after the commit, best
 * effort, except a file an order line or a kept row still shows. Running it again removes nothing.
 */
export async function removeDemoData(
  db: DB,
  storage: Storage,
  options: { actorUserId: string | null },
): Promise<DemoDataRemoval> {
  const { summary, files } = await db.transaction().execute(async (trx) => {
    const summary = await summarizeDemoData(trx);
    const demoProductIds = trx.selectFrom("products").select("id").where("is_demo", "=", 1);
    const keptIds = (await keptCategoriesQuery(trx).execute()).map((row) => row.id);
    const files = new Set<string>();

    const productImages = await trx
      .selectFrom("product_images")
      .select("path")
      .where("product_id", "in", demoProductIds)
      .execute();
    for (const image of productImages) files.add(image.path);
    await trx.deleteFrom("cart_lines").where("product_id", "in", demoProductIds).execute();
    await trx.updateTable("order_lines").set({ product_id: null }).where("product_id", "in", demoProductIds).execute();
    await trx.deleteFrom("product_images").where("product_id", "in", demoProductIds).execute();
    await trx.deleteFrom("product_variants").where("product_id", "in", demoProductIds).execute();
    await trx.deleteFrom("products").where("is_demo", "=", 1).execute();

    const posts = await trx.selectFrom("blog_posts").select("image_path").where("is_demo", "=", 1).execute();
    for (const post of posts) if (post.image_path) files.add(post.image_path);
    await trx.deleteFrom("blog_posts").where("is_demo", "=", 1).execute();

    const at = now();
    if (keptIds.length > 0) {
      await trx.updateTable("categories").set({ is_demo: 0, updated_at: at }).where("id", "in", keptIds).execute();
    }
    const categories = await trx.selectFrom("categories").select("image_path").where("is_demo", "=", 1).execute();
    for (const category of categories) if (category.image_path) files.add(category.image_path);
    await trx.deleteFrom("categories").where("is_demo", "=", 1).execute();

    const demoAccounts = await trx.selectFrom("bank_accounts").select("is_primary").where("is_demo", "=", 1).execute();
    await trx.deleteFrom("bank_accounts").where("is_demo", "=", 1).execute();
    let newPrimaryId: number | null = null;
    if (demoAccounts.some((account) => account.is_primary === 1)) {
      const newest = await trx
        .selectFrom("bank_accounts")
        .select("id")
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst();
      if (newest) {
        await trx
          .updateTable("bank_accounts")
          .set({ is_primary: 1, updated_at: at })
          .where("id", "=", newest.id)
          .execute();
        newPrimaryId = newest.id;
      }
    }

    const demoHero = await getSetting(trx, DEMO_HERO_IMAGE_KEY);
    if (demoHero) {
      if (summary.demoHero) await deleteSetting(trx, HERO_IMAGE_KEY);
      await deleteSetting(trx, DEMO_HERO_IMAGE_KEY);
      // Only the demo's own image: the owner's hero stays, and a replaced demo image is already gone.
      if (summary.demoHero || (await getSetting(trx, HERO_IMAGE_KEY)) !== demoHero) files.add(demoHero);
    }

    // A file that an order line (or a row that stays) still shows is kept.
    const keys = [...files];
    if (keys.length > 0) {
      const [ordered, products, categoriesLeft, postsLeft, hero] = await Promise.all([
        trx.selectFrom("order_lines").select("image_path as key").where("image_path", "in", keys).execute(),
        trx.selectFrom("product_images").select("path as key").where("path", "in", keys).execute(),
        trx.selectFrom("categories").select("image_path as key").where("image_path", "in", keys).execute(),
        trx.selectFrom("blog_posts").select("image_path as key").where("image_path", "in", keys).execute(),
        getSetting(trx, HERO_IMAGE_KEY),
      ]);
      for (const row of [...ordered, ...products, ...categoriesLeft, ...postsLeft]) if (row.key) files.delete(row.key);
      if (hero) files.delete(hero);
    }

    if (!isDemoDataEmpty(summary) || demoHero) {
      await auditAction(trx, options.actorUserId, "demo_data.removed", null, {
        before: {
          products: summary.products,
          categories: summary.categories,
          blog_posts: summary.blogPosts,
          bank_accounts: summary.bankAccounts,
          hero_reset: summary.demoHero,
        },
        after: { kept_categories: keptIds, primary_account_id: newPrimaryId },
      });
    }
    return { summary, files: [...files] };
  });

  await removeFilesQuietly(storage, "public", files);
  return { ...summary, deletedFiles: files.length };
}
