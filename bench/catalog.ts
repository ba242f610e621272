import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest, openDatabase } from "#db/connect.server";
import { seedBulkProducts } from "#db/seed/bulk.server";
import { seedDemo } from "#db/seed/index.server";
import { MemoryStorage } from "~/lib/storage.server";
import { findActiveCategory, findProduct, listProducts } from "~/models/products/catalog.server";
import { searchProducts } from "~/models/products/search.server";

/**
 * Database time of the catalogue's hot paths with 10,000 extra products (npm run bench:catalog).
 * Each case is everything one page asks the database: count + page + images + colours.
 */
export async function measure(label: string, run: () => Promise<unknown>, iterations = 200) {
  for (let i = 0; i < 20; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    case: label,
    p50_ms: Number(at(0.5).toFixed(2)),
    p95_ms: Number(at(0.95).toFixed(2)),
    max_ms: Number(at(1).toFixed(2)),
  };
}

export async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  const db = openDatabase(`file:${path.join(dir, "bench.db")}`);
  try {
    await migrateToLatest(db);
    await seedDemo(db, new MemoryStorage());
    const started = Date.now();
    await seedBulkProducts(db, 10_000);
    console.info(`seeded 10,000 extra products in ${Date.now() - started} ms`);
    const rifles = await findActiveCategory(db, "rifles");
    const middle = await db
      .selectFrom("products")
      .select("id")
      .orderBy("id")
      .offset(5_000)
      .limit(1)
      .executeTakeFirstOrThrow();
    const rows = [
      await measure("category page 1, featured", () =>
        listProducts(db, { categoryId: rifles?.id ?? null, sort: "featured", page: 1, currency: "HKD" }),
      ),
      await measure("category page 20, price band, price high-low, GBP", () =>
        listProducts(db, {
          categoryId: rifles?.id ?? null,
          price: "high",
          sort: "price-high-low",
          page: 20,
          currency: "GBP",
        }),
      ),
      await measure("all products, newest, page 200", () =>
        listProducts(db, { categoryId: null, sort: "newest", page: 200, currency: "HKD" }),
      ),
      await measure("product page", () => findProduct(db, middle.id, "HKD")),
      await measure("search, English, 3+ characters (full-text)", () => searchProducts(db, "carbine", "HKD")),
      await measure("search, Chinese, 2 characters (partial match)", () => searchProducts(db, "手槍", "HKD")),
      // Synonyms (decision 043): 3+ character words in one MATCH; a 2-character word adds the partial match.
      await measure("search, synonyms of 3+ characters (full-text)", () => searchProducts(db, "silencer", "HKD")),
      await measure("search, synonyms with 2 characters (步槍 → 長槍, rifle)", () => searchProducts(db, "步槍", "HKD")),
    ];
    console.table(rows);
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
