import fs from "node:fs";
import path from "node:path";
import { migrateToLatest, openDatabase } from "#db/connect.server";
import { seedBulkProducts } from "#db/seed/bulk.server";
import { seedDemo } from "#db/seed/index.server";
import { DiskStorage } from "~/lib/storage.server";
import { seedExtraCategories, seedPageViews, seedShop } from "../seed";

/** What the HTTP benchmark needs to know about the database it seeded. */
export interface Dataset {
  counts: Record<string, number>;
  categorySlugs: string[];
  productIds: number[];
  /** B5: a colour with practically endless stock, so every add can succeed. */
  cartProduct: { id: number; color: string };
  /** B6: a colour with SCARCE_STOCK left, bought by 50 shoppers at once. */
  scarceProduct: { id: number; color: string; stock: number };
  seedMs: Record<string, number>;
}

export const SCARCE_STOCK = 20;

/**
 * The benchmark shop, loaded through Vite by bench/http.mjs: migrations and the demo catalogue
 * (images on disk in `uploadsDir`), 10,000 more products (~30,000 colour variants), 50
 * categories, 10,000 customers with 50,000 orders and 100,000 page views.
 */
export async function seedHttpBench(databaseFile: string, uploadsDir: string): Promise<Dataset> {
  fs.mkdirSync(path.dirname(databaseFile), { recursive: true });
  const db = openDatabase(`file:${databaseFile}`);
  const seedMs: Record<string, number> = {};
  const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await run();
    seedMs[label] = Date.now() - started;
    return result;
  };
  try {
    await timed("migrate", () => migrateToLatest(db));
    await timed("demo", () => seedDemo(db, new DiskStorage(uploadsDir)));
    await timed("products", () => seedBulkProducts(db, 10_000));
    await timed("categories", () => seedExtraCategories(db, 50));
    await timed("orders", () => seedShop(databaseFile, { customers: 10_000, orders: 50_000 }));
    await timed("pageViews", () => seedPageViews(db, 100_000));

    const variants = await db
      .selectFrom("product_variants")
      .select(["id", "product_id", "color"])
      .where("color", "=", "Black")
      .orderBy("product_id", "desc")
      .limit(2)
      .execute();
    const [cartVariant, scarceVariant] = variants;
    if (!cartVariant || !scarceVariant) throw new Error("no bulk product with a Black variant");
    await db.updateTable("product_variants").set({ stock: 10_000_000 }).where("id", "=", cartVariant.id).execute();
    await db.updateTable("product_variants").set({ stock: SCARCE_STOCK }).where("id", "=", scarceVariant.id).execute();

    const count = async (table: "products" | "product_variants" | "categories" | "orders" | "users" | "page_views") =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const counts: Record<string, number> = {};
    for (const table of ["products", "product_variants", "categories", "orders", "users", "page_views"] as const)
      counts[table] = await count(table);
    const categorySlugs = (await db.selectFrom("categories").select("slug").where("is_active", "=", 1).execute()).map(
      (row) => row.slug,
    );
    // Product pages a shopper can open: a product of an inactive category is hidden (404).
    const productIds = (
      await db
        .selectFrom("products")
        .leftJoin("categories", "categories.id", "products.category_id")
        .select("products.id")
        .where((eb) => eb.or([eb("categories.id", "is", null), eb("categories.is_active", "=", 1)]))
        .execute()
    ).map((row) => row.id);
    return {
      counts,
      categorySlugs,
      productIds,
      cartProduct: { id: cartVariant.product_id, color: cartVariant.color },
      scarceProduct: { id: scarceVariant.product_id, color: scarceVariant.color, stock: SCARCE_STOCK },
      seedMs,
    };
  } finally {
    await db.destroy();
  }
}
