import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { seedDemo } from "#db/seed/index.server";
import { MemoryStorage } from "~/lib/storage.server";
import {
  getAnalytics,
  getBusinessMetrics,
  getDailySeries,
  listRecentOrders,
  recordPageView,
  startOfHongKongDay,
} from "~/models/analytics.server";
import { createTestDb } from "./setup/db";

const { db } = await createTestDb();
await seedDemo(db, new MemoryStorage());

const NOW = Date.parse("2026-11-21T12:00:00Z"); // 20:00 in Hong Kong

async function view(path: string, session: string, at: number) {
  await db
    .insertInto("page_views")
    .values({
      path,
      session_id: session,
      user_id: null,
      user_agent: "test",
      referrer: null,
      created_at: new Date(at).toISOString(),
    })
    .execute();
}

async function order(
  status: "pending_payment" | "cancelled" | "paid",
  currency: "HKD" | "GBP",
  total: number,
  at: number,
) {
  const id = crypto.randomUUID();
  await db
    .insertInto("orders")
    .values({
      id,
      order_number: `ORD-${at}-${id.slice(0, 6)}`,
      user_id: null,
      status,
      currency,
      locale: "en",
      subtotal_cents: total,
      shipping_cents: 0,
      total_cents: total,
      first_name: "A",
      last_name: "B",
      email: "a@b.hk",
      address: "x",
      city: "y",
      country: "HK",
      created_at: new Date(at).toISOString(),
      updated_at: new Date(at).toISOString(),
    })
    .execute();
  return id;
}

describe("analytics", () => {
  it("finds the start of the Hong Kong day", () => {
    expect(startOfHongKongDay(NOW)).toBe("2026-11-20T16:00:00.000Z");
    // 23:30 UTC is already the next day in Hong Kong.
    expect(startOfHongKongDay(Date.parse("2026-11-21T23:30:00Z"))).toBe("2026-11-21T16:00:00.000Z");
  });

  it("counts views, unique visitors, today's and the popular pages of the last 7 days", async () => {
    await view("/", "s1", NOW - 60_000);
    await view("/", "s2", NOW - 60_000);
    await view("/category/rifles", "s1", NOW - 120_000);
    await view("/faq", "s3", Date.parse("2026-11-20T15:00:00Z")); // yesterday in Hong Kong
    await view("/old", "s4", NOW - 10 * 86_400_000); // outside the 7 days
    await view("", "s5", NOW - 1000); // an empty path shows as '/'
    const stats = await getAnalytics(db, NOW);
    expect(stats.totalViews).toBe(6);
    expect(stats.uniqueVisitors).toBe(5);
    expect(stats.viewsToday).toBe(4);
    expect(stats.visitorsToday).toBe(3);
    expect(stats.popularPages.filter((p) => p.path === "/").length).toBe(2);
    expect(stats.popularPages[0]).toEqual({ path: "/", views: 2 });
    expect(stats.popularPages.some((p) => p.path === "/old")).toBe(false);
    expect(stats.popularPages.length).toBeLessThanOrEqual(5);
  });

  it("gives 30 zero-filled Hong Kong days of views and orders", async () => {
    await order("pending_payment", "HKD", 10_000, NOW - 3_600_000);
    const series = await getDailySeries(db, 30, NOW);
    expect(series).toHaveLength(30);
    expect(series.at(-1)).toMatchObject({ day: "2026-11-21", views: 4, orders: 1 });
    expect(series.find((p) => p.day === "2026-11-20")?.views).toBe(1);
    expect(series[0]?.day).toBe("2026-10-23");
  });

  it("keeps revenue per currency, leaves cancelled orders out, and values inventory in HKD", async () => {
    await order("paid", "GBP", 5_000, NOW - 7_200_000);
    await order("cancelled", "GBP", 99_999, NOW - 7_200_000);
    const metrics = await getBusinessMetrics(db);
    expect(metrics.revenue).toEqual([
      { currency: "GBP", cents: 5_000 },
      { currency: "HKD", cents: 10_000 },
    ]);
    expect(metrics.totalOrders).toBe(3);
    const rows = await db
      .selectFrom("product_variants")
      .innerJoin("products", "products.id", "product_variants.product_id")
      .select(["products.price_hkd_cents", "product_variants.stock"])
      .execute();
    expect(metrics.inventoryValueHkdCents).toBe(rows.reduce((sum, r) => sum + r.price_hkd_cents * r.stock, 0));
    expect(metrics.totalProducts).toBeGreaterThanOrEqual(40);
  });

  it("records a page view", async () => {
    const before = (await getAnalytics(db)).totalViews;
    await recordPageView(db, { path: "/x", sessionId: "s9", userId: null, userAgent: "UA", referrer: null });
    expect((await getAnalytics(db)).totalViews).toBe(before + 1);
  });

  it("lists the latest five orders with 8-character ids", async () => {
    for (let i = 0; i < 4; i++) await order("pending_payment", "HKD", 100 * (i + 1), NOW - i * 1000);
    const recent = await listRecentOrders(db, 5);
    expect(recent).toHaveLength(5);
    expect(recent.every((o) => o.shortId.length === 8)).toBe(true);
    expect((recent[0]?.createdAt ?? "") >= (recent[4]?.createdAt ?? "")).toBe(true);
  });
});
