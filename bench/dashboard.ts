import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest, now, openDatabase } from "#db/connect.server";
import { seedBulkProducts } from "#db/seed/bulk.server";
import { seedDemo } from "#db/seed/index.server";
import { MemoryStorage } from "~/lib/storage.server";
import {
  getAnalytics,
  getBusinessMetrics,
  getDailySeries,
  listRecentOrders,
  recordPageView,
} from "~/models/analytics.server";
import { measure } from "./catalog";
import { seedPageViews } from "./seed";

/** Database time of the admin dashboard with 10,000 products and 100,000 page views (npm run bench:dashboard). */
export async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  const db = openDatabase(`file:${path.join(dir, "bench.db")}`);
  try {
    await migrateToLatest(db);
    await seedDemo(db, new MemoryStorage());
    await seedBulkProducts(db, 10_000);
    const { insertMs, backfillMs } = await seedPageViews(db, 100_000);
    console.info(`seeded 100,000 page views in ${insertMs} ms`);
    // Rows written straight into page_views skip the recorder's rollups: seedPageViews rebuilds
    // them with the migration's own backfill, as an upgrade of a shop with this history would.
    console.info(`backfilled the page-view rollups in ${backfillMs} ms`);
    let seq = 0;
    const rows = [
      await measure("analytics cards + popular pages", () => getAnalytics(db), 50),
      await measure("30-day views and orders series", () => getDailySeries(db, 30), 50),
      await measure("business metrics (inventory value over 30,000 variants)", () => getBusinessMetrics(db), 50),
      await measure("recent orders", () => listRecentOrders(db, 5), 50),
      // Write side: what the recorder did before the rollups, and what it does now.
      await measure(
        "insert one page view only (the recorder before rollups)",
        () =>
          db
            .insertInto("page_views")
            .values({
              path: "/faq",
              session_id: `w${++seq % 500}`,
              user_id: null,
              user_agent: "bench",
              referrer: null,
              created_at: now(),
            })
            .execute(),
        200,
      ),
      await measure(
        "record one page view with its rollups (one transaction)",
        () =>
          recordPageView(db, {
            path: "/faq",
            sessionId: `r${++seq % 500}`,
            userId: null,
            userAgent: "bench",
            referrer: null,
          }),
        200,
      ),
    ];
    console.table(rows);
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
