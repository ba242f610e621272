import type { Transaction } from "kysely";
import { type DB, now } from "#db/connect.server";
import { lockTable } from "#db/dialect";
import type { Database } from "#db/schema";
import { removeFilesQuietly, type Storage } from "~/lib/storage.server";
import { auditAction } from "./audit.server";
import { clearDemoTexts, hasDemoTexts, loadShop } from "./settings/shop.server";
import { DEMO_HERO_IMAGE_KEY, deleteSetting, getSetting, HERO_IMAGE_KEY } from "./settings/site-settings.server";

/**
 * The demo content the shop is seeded with (rows with is_demo = 1: products, categories, blog
 * posts, the bank account, the hero image kept under DEMO_HERO_IMAGE_KEY, and the demo words of
 * the home hero and the footer), and its removal in one step before the shop goes live. Orders
 * are never touched: their lines keep the names, colours, prices and image they were placed with.
 *
 * A demo product the owner has edited (docs/decisions/042) is one whose updated_at differs from
 * its created_at: the seed writes both the same, and every owner's save (the product form, a CSV
 * import that changes it, a category move) sets updated_at; a shopper's order (stock) does not.
 * Such a product is listed on the removal screen and kept unless the owner unticks it.
 */

/** A demo product the owner has changed since the seed. */
export interface EditedDemoProduct {
  id: number;
  name_en: string;
  name_zh: string;
  updated_at: string;
}

export interface DemoDataSummary {
  /** Demo products that go: those the owner never edited (edited ones are listed apart). */
  products: number;
  /** Demo products the owner has edited: kept unless the owner chooses to remove them. */
  editedProducts: EditedDemoProduct[];
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
  /** The hero headline, subtitle or footer text still has the demo words (they are emptied). */
  demoTexts: boolean;
}

export interface DemoDataRemoval extends DemoDataSummary {
  /** Edited demo products kept as the owner's own (no longer demo). */
  keptProducts: number;
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

/**
 * Demo categories holding a product that is not demo content: they are kept. With
 * `editedKept`, a demo product the owner edited counts as theirs (the screen's default).
 */
function keptCategoriesQuery(db: Reader, editedKept = false) {
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
          .where((p) =>
            editedKept
              ? p.or([p("products.is_demo", "=", 0), p("products.updated_at", "!=", p.ref("products.created_at"))])
              : p("products.is_demo", "=", 0),
          ),
      ),
    )
    .orderBy("sort_order")
    .orderBy("id");
}

/** Demo products the owner has edited since the seed, most recently edited first. */
function editedDemoProducts(db: Reader) {
  return db
    .selectFrom("products")
    .select(["id", "name_en", "name_zh", "updated_at"])
    .where("is_demo", "=", 1)
    .whereRef("updated_at", "!=", "created_at")
    .orderBy("updated_at", "desc")
    .orderBy("id");
}

/**
 * What "Remove demo data" would remove now, keeping every edited demo product (the screen's
 * default); with `editedKept` false, as if the edited ones went too.
 */
export async function summarizeDemoData(db: Reader, editedKept = true): Promise<DemoDataSummary> {
  const [products, editedProducts, demoCategories, keptCategories, blogPosts, bankAccounts, ownBankAccounts, hero] =
    await Promise.all([
      countDemo(db, "products"),
      editedDemoProducts(db).execute(),
      countDemo(db, "categories"),
      keptCategoriesQuery(db, editedKept).execute(),
      countDemo(db, "blog_posts"),
      countDemo(db, "bank_accounts"),
      countDemo(db, "bank_accounts", 0),
      getSetting(db, HERO_IMAGE_KEY),
    ]);
  const [demoHero, shop] = await Promise.all([getSetting(db, DEMO_HERO_IMAGE_KEY), loadShop(db)]);
  return {
    products: products - editedProducts.length,
    editedProducts,
    categories: demoCategories - keptCategories.length,
    keptCategories,
    blogPosts,
    bankAccounts,
    ownBankAccounts,
    demoHero: hero !== null && hero === demoHero,
    demoTexts: hasDemoTexts(shop),
  };
}

/** True when nothing of the demo is left to remove. */
export function isDemoDataEmpty(summary: DemoDataSummary): boolean {
  return (
    summary.products +
      summary.editedProducts.length +
      summary.categories +
      summary.keptCategories.length +
      summary.blogPosts +
      summary.bankAccounts ===
      0 &&
    !summary.demoHero &&
    !summary.demoTexts
  );
}

/**
 * Removes the demo content in one transaction. First, every demo product the owner has edited
 * becomes theirs (no longer demo) — except those named in `removeEdited`, which the owner chose
 * to remove with the demo; an edited product not named (say, edited after the screen was shown)
 * is kept. Then: demo products with their colours, image rows and cart lines (order lines keep
 * their snapshot and lose only the link to the product), demo blog posts, the demo bank account
 * (when it was primary, the newest remaining account becomes primary), and demo categories,
 * except one that now holds a product of the owner's: that one is kept and no longer marked as
 * demo. The home page's hero goes back to the default while it is still the demo image, and the
 * hero and footer texts still in the demo's words are emptied (the storefront falls back).
 * Audited with the counts. The image files go after the commit, best effort, except a file an
 * order line or a kept row still shows. Running it again removes nothing.
 */
export async function removeDemoData(
  db: DB,
  storage: Storage,
  options: { actorUserId: string | null; removeEdited?: readonly number[] },
): Promise<DemoDataRemoval> {
  const { summary, files, keptProducts } = await db.transaction().execute(async (trx) => {
    // The rule "an edited demo product is kept unless the owner let it go": a product saved while
    // this runs must be seen as edited, so no product write may land between the read and the delete.
    await lockTable(trx, "products");
    const before = await summarizeDemoData(trx);
    const dropped = new Set(options.removeEdited ?? []);
    const keptProducts = before.editedProducts.filter((product) => !dropped.has(product.id)).map((p) => p.id);
    if (keptProducts.length > 0) {
      // Only the flag: what the owner edited stays exactly as they left it, updated_at included.
      await trx.updateTable("products").set({ is_demo: 0 }).where("id", "in", keptProducts).execute();
    }
    // What goes now: every product still marked demo (the edited ones the owner let go included).
    const remaining = await summarizeDemoData(trx, false);
    const summary: DemoDataSummary = {
      ...remaining,
      products: remaining.products + remaining.editedProducts.length,
      editedProducts: [],
    };
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
    // Demo brands go too, except one a remaining product (the owner's, or an edited demo product
    // kept) still uses: that one stays, no longer marked as demo (docs/decisions/052).
    const usedBrands = trx.selectFrom("products").select("brand_id").where("brand_id", "is not", null);
    await trx
      .updateTable("brands")
      .set({ is_demo: 0, updated_at: at })
      .where("is_demo", "=", 1)
      .where("id", "in", usedBrands)
      .execute();
    await trx.deleteFrom("brands").where("is_demo", "=", 1).execute();

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
    const textsCleared = await clearDemoTexts(trx);

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

    if (!isDemoDataEmpty(summary) || demoHero || keptProducts.length > 0) {
      await auditAction(trx, options.actorUserId, "demo_data.removed", null, {
        before: {
          products: summary.products,
          categories: summary.categories,
          blog_posts: summary.blogPosts,
          bank_accounts: summary.bankAccounts,
          hero_reset: summary.demoHero,
          texts_reset: textsCleared,
        },
        after: { kept_categories: keptIds, kept_products: keptProducts, primary_account_id: newPrimaryId },
      });
    }
    return { summary, files: [...files], keptProducts: keptProducts.length };
  });

  await removeFilesQuietly(storage, "public", files);
  return { ...summary, keptProducts, deletedFiles: files.length };
}
