import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { hongKongDay } from "#db/dialect";
import * as pageViewRollup from "#db/migrations/0005-page-view-rollup";
import type { Currency, OrderStatus } from "#db/schema";
import { seedDemo } from "#db/seed/index.server";
import { MemoryStorage } from "~/lib/storage.server";
import { pageViewMiddleware } from "~/middleware/page-views";
import {
  type Analytics,
  getAnalytics,
  getBusinessMetrics,
  getDailySeries,
  hongKongDate,
  listRecentOrders,
  recordPageView,
  startOfHongKongDay,
} from "~/models/analytics.server";
import { userContext } from "~/request/auth.server";
import { flushPageViews } from "~/request/page-views.server";
import { createTestContext, createTestDb, createTestServices } from "./setup/db";

const { db } = await createTestDb();
await seedDemo(db, new MemoryStorage());

const NOW = Date.parse("2026-11-21T12:00:00Z"); // 20:00 in Hong Kong

async function view(path: string, session: string, at: number, into: DB = db) {
  await recordPageView(into, { path, sessionId: session, userId: null, userAgent: "test", referrer: null }, at);
}

/** What the dashboard showed before the rollups: counted straight from page_views. */
async function rawAnalytics(from: DB, at: number): Promise<Analytics> {
  const today = startOfHongKongDay(at);
  const weekAgo = new Date(at - 7 * 86_400_000).toISOString();
  const count = (since: string) =>
    from
      .selectFrom("page_views")
      .select((eb) => [
        eb.fn.countAll<number>().as("views"),
        eb.fn.count<number>("session_id").distinct().as("visitors"),
      ])
      .where("created_at", ">=", since)
      .executeTakeFirstOrThrow();
  const [all, todays, popular] = [
    await count(""),
    await count(today),
    await from
      .selectFrom("page_views")
      .select((eb) => ["path", eb.fn.countAll<number>().as("views")])
      .where("created_at", ">=", weekAgo)
      .groupBy("path")
      .orderBy("views", "desc")
      .orderBy("path")
      .limit(5)
      .execute(),
  ];
  return {
    totalViews: all.views,
    uniqueVisitors: all.visitors,
    viewsToday: todays.views,
    visitorsToday: todays.visitors,
    popularPages: popular.map((row) => ({ path: row.path || "/", views: row.views })),
  };
}

/** Views and distinct sessions per Hong Kong day, counted straight from page_views. */
async function rawDays(from: DB) {
  return from
    .selectFrom("page_views")
    .select((eb) => [
      hongKongDay(from, "created_at").as("day"),
      eb.fn.countAll<number>().as("views"),
      eb.fn.count<number>("session_id").distinct().as("visitors"),
    ])
    .groupBy("day")
    .orderBy("day")
    .execute();
}

async function rollupRows(from: DB) {
  return {
    days: await from.selectFrom("page_view_days").selectAll().orderBy("day").execute(),
    paths: await from.selectFrom("page_view_paths").selectAll().orderBy("day").orderBy("path").execute(),
    daySessions: await from
      .selectFrom("page_view_day_sessions")
      .selectAll()
      .orderBy("day")
      .orderBy("session_id")
      .execute(),
    sessions: await from.selectFrom("page_view_sessions").selectAll().orderBy("session_id").execute(),
  };
}

/**
 * A month of views that crosses Hong Kong midnights (16:00 UTC) on both sides, with sessions
 * coming back on later days, an empty path and ties in the popular pages.
 */
function sampleViews(): { path: string; session: string; at: number }[] {
  const paths = ["/", "", "/faq", "/cart", "/blog", "/category/rifles", "/product/1", "/product/2"];
  const views: { path: string; session: string; at: number }[] = [];
  for (let n = 0; n < 600; n++) {
    // Spread over 30 days, many within a few seconds of a Hong Kong midnight.
    const day = Date.parse("2026-11-21T16:00:00Z") - (n % 30) * 86_400_000;
    const at = n % 3 === 0 ? day + ((n % 7) - 3) * 1000 : day - (n % 86_400) * 997;
    views.push({ path: paths[(n % 11) % paths.length] ?? "/", session: `v${n % 23}`, at });
  }
  return views;
}

async function order(
  status: OrderStatus,
  currency: Currency,
  total: number,
  at: number,
  name: { first: string; last: string } = { first: "A", last: "B" },
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
      first_name: name.first,
      last_name: name.last,
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

  it("counts revenue from paid orders only, per currency, with pending payments apart, and values inventory in HKD", async () => {
    // Before: one pending HKD order (the daily-series test). Pending is not revenue.
    let metrics = await getBusinessMetrics(db);
    expect(metrics.revenue).toEqual([]);
    expect(metrics.pending).toEqual([{ currency: "HKD", count: 1, cents: 10_000 }]);

    await order("paid", "GBP", 5_000, NOW - 7_200_000);
    await order("cancelled", "GBP", 99_999, NOW - 7_200_000);
    await order("processing", "HKD", 20_000, NOW - 7_200_000);
    await order("shipped", "HKD", 30_000, NOW - 7_200_000);
    await order("delivered", "USD", 1_234, NOW - 7_200_000);
    await order("pending_payment", "GBP", 700, NOW - 7_200_000);
    await order("pending_payment", "GBP", 300, NOW - 7_200_000);
    await order("cancelled", "EUR", 4_000, NOW - 7_200_000);
    metrics = await getBusinessMetrics(db);
    // Per currency in the shop's order (HKD, GBP, EUR, USD); cancelled counts nowhere.
    expect(metrics.revenue).toEqual([
      { currency: "HKD", count: 2, cents: 50_000 },
      { currency: "GBP", count: 1, cents: 5_000 },
      { currency: "USD", count: 1, cents: 1_234 },
    ]);
    expect(metrics.pending).toEqual([
      { currency: "HKD", count: 1, cents: 10_000 },
      { currency: "GBP", count: 2, cents: 1_000 },
    ]);
    expect(metrics.totalOrders).toBe(9);
    const rows = await db
      .selectFrom("product_variants")
      .innerJoin("products", "products.id", "product_variants.product_id")
      .select(["products.price_hkd_cents", "product_variants.stock"])
      .execute();
    expect(metrics.inventoryValueHkdCents).toBe(rows.reduce((sum, r) => sum + r.price_hkd_cents * r.stock, 0));
    expect(metrics.totalProducts).toBeGreaterThanOrEqual(40);
  });

  it("records a page view", async () => {
    const before = await getAnalytics(db);
    await recordPageView(db, { path: "/x", sessionId: "s9", userId: null, userAgent: "UA", referrer: null });
    const after = await getAnalytics(db);
    expect(after.totalViews).toBe(before.totalViews + 1);
    expect(after.uniqueVisitors).toBe(before.uniqueVisitors + 1);
    expect(after.viewsToday).toBe(before.viewsToday + 1);
    expect(after.visitorsToday).toBe(before.visitorsToday + 1);
    const stored = await db.selectFrom("page_views").selectAll().where("session_id", "=", "s9").execute();
    expect(stored).toMatchObject([{ path: "/x", user_agent: "UA", referrer: null }]);
  });

  it("lists the latest five orders, newest first, with their ORD number and the customer's name", async () => {
    const later = NOW + 60_000;
    const ids: string[] = [];
    for (const [i, name] of [
      { first: "Tai Man", last: "Chan" },
      { first: "大文", last: "陳" },
      { first: "Emma", last: "Watson" },
      { first: "Siu Ming", last: "Wong" },
    ].entries())
      ids.push(await order("pending_payment", "HKD", 100 * (i + 1), later + i * 1000, name));
    const recent = await listRecentOrders(db, 5);
    expect(recent).toHaveLength(5);
    expect(recent.slice(0, 4).map((o) => o.id)).toEqual([...ids].reverse());
    expect(recent[0]).toMatchObject({
      id: ids[3],
      firstName: "Siu Ming",
      lastName: "Wong",
      status: "pending_payment",
      currency: "HKD",
      totalCents: 400,
      createdAt: new Date(later + 3000).toISOString(),
    });
    expect(recent[0]?.orderNumber).toMatch(/^ORD-\d+-/);
    const stored = await db
      .selectFrom("orders")
      .select("order_number")
      .where("id", "=", ids[1] as string)
      .executeTakeFirst();
    expect(recent[2]?.orderNumber).toBe(stored?.order_number);
    expect(recent[2]).toMatchObject({ firstName: "大文", lastName: "陳" });
    expect((recent[3]?.createdAt ?? "") >= (recent[4]?.createdAt ?? "")).toBe(true);
  });
});

describe("page-view rollups", () => {
  it("give the dashboard the same figures as a raw count over page_views", async () => {
    const { db: rolled } = await createTestDb();
    for (const v of sampleViews()) await view(v.path, v.session, v.at, rolled);
    // The last view is at 2026-11-21T16:00:03Z (00:00:03 in Hong Kong). Just after it, mid-day,
    // just before the next Hong Kong midnight, with the 7-day window starting inside a day
    // (12:00 UTC, 15:59:59 UTC) and exactly at a day boundary (16:00 UTC), and long after.
    for (const at of [
      "2026-11-21T16:00:03.000Z",
      "2026-11-22T04:00:00.000Z",
      "2026-11-22T12:00:00.000Z",
      "2026-11-22T15:59:59.999Z",
      "2026-11-22T16:00:00.000Z",
      "2026-11-28T15:59:59.000Z",
      "2026-12-30T00:00:00.000Z",
    ]) {
      const expected = await rawAnalytics(rolled, Date.parse(at));
      expect(await getAnalytics(rolled, Date.parse(at)), at).toEqual(expected);
    }
    const expected = await rawAnalytics(rolled, Date.parse("2026-11-21T16:00:03.000Z"));
    expect(expected.totalViews).toBe(600);
    expect(expected.uniqueVisitors).toBe(23);
    expect(expected.viewsToday).toBeGreaterThan(0);
    expect(expected.popularPages).toHaveLength(5);

    const series = await getDailySeries(rolled, 30, Date.parse("2026-11-21T16:00:03.000Z"));
    const days = await rawDays(rolled);
    expect(
      await rolled.selectFrom("page_view_days").select(["day", "views", "visitors"]).orderBy("day").execute(),
    ).toEqual(days);
    const raw = new Map(days.map((row) => [row.day, row.views]));
    expect(series.map((p) => [p.day, p.views])).toEqual(series.map((p) => [p.day, raw.get(p.day) ?? 0]));
    expect(series.reduce((sum, p) => sum + p.views, 0)).toBe(
      [...raw].filter(([day]) => day >= (series[0]?.day ?? "")).reduce((sum, [, n]) => sum + n, 0),
    );
  });

  it("counts a session seen on two days once in unique visitors and once in each day's visitors", async () => {
    const { db: rolled } = await createTestDb();
    const lateMonday = Date.parse("2026-11-16T15:59:59.999Z"); // 23:59:59.999 in Hong Kong
    const earlyTuesday = Date.parse("2026-11-16T16:00:00.000Z"); // 00:00 the next day
    await view("/", "night-owl", lateMonday, rolled);
    await view("/faq", "night-owl", earlyTuesday, rolled);
    await view("/faq", "night-owl", earlyTuesday + 60_000, rolled);
    await view("/cart", "other", earlyTuesday + 120_000, rolled);
    expect(hongKongDate(lateMonday)).toBe("2026-11-16");
    expect(hongKongDate(earlyTuesday)).toBe("2026-11-17");

    const tuesday = await getAnalytics(rolled, earlyTuesday + 3_600_000);
    expect(tuesday).toMatchObject({ totalViews: 4, uniqueVisitors: 2, viewsToday: 3, visitorsToday: 2 });
    const monday = await getAnalytics(rolled, lateMonday);
    expect(monday).toMatchObject({ viewsToday: 1, visitorsToday: 1 });
    expect(await rollupRows(rolled)).toMatchObject({
      days: [
        { day: "2026-11-16", views: 1, visitors: 1, new_visitors: 1 },
        { day: "2026-11-17", views: 3, visitors: 2, new_visitors: 1 },
      ],
      sessions: [
        { session_id: "night-owl", first_day: "2026-11-16" },
        { session_id: "other", first_day: "2026-11-17" },
      ],
    });
    const series = await getDailySeries(rolled, 2, earlyTuesday);
    expect(series).toEqual([
      { day: "2026-11-16", views: 1, orders: 0 },
      { day: "2026-11-17", views: 3, orders: 0 },
    ]);
  });

  it("lists the top five paths of the last 7 × 24 hours, most viewed first, ties by path, '' as '/'", async () => {
    const { db: rolled } = await createTestDb();
    const at = Date.parse("2026-11-21T12:00:00Z");
    const weekAgo = at - 7 * 86_400_000; // 20:00 in Hong Kong, inside a day
    for (const [path, n] of [
      ["/a", 3],
      ["/b", 3],
      ["", 2],
      ["/", 2],
      ["/c", 1],
      ["/d", 1],
    ] as const) {
      for (let i = 0; i < n; i++) await view(path, `p${i}`, at - i * 86_400_000, rolled);
    }
    await view("/old", "o1", weekAgo - 1, rolled); // just outside the window, same Hong Kong day as its start
    await view("/old", "o1", weekAgo - 2, rolled);
    await view("/edge", "o2", weekAgo, rolled); // the window's first instant
    const stats = await getAnalytics(rolled, at);
    expect(stats.popularPages).toEqual([
      { path: "/a", views: 3 },
      { path: "/b", views: 3 },
      { path: "/", views: 2 },
      { path: "/", views: 2 },
      { path: "/c", views: 1 },
    ]);
    expect(stats.popularPages).toEqual((await rawAnalytics(rolled, at)).popularPages);
    // Move the window back a little: /edge and /old come in, whole days from the rollup.
    const earlier = await getAnalytics(rolled, at - 3);
    expect(earlier).toEqual(await rawAnalytics(rolled, at - 3));
  });

  it("are backfilled by the migration from the views already recorded", async () => {
    // In the order the server records them (a session's first day is the day it was first recorded).
    const views = sampleViews().sort((a, b) => a.at - b.at);
    const { db: recorded } = await createTestDb();
    for (const v of views) await view(v.path, v.session, v.at, recorded);
    const { db: legacy } = await createTestDb();
    await pageViewRollup.down(legacy);
    for (const v of views) {
      await legacy
        .insertInto("page_views")
        .values({
          path: v.path,
          session_id: v.session,
          user_id: null,
          user_agent: "test",
          referrer: null,
          created_at: new Date(v.at).toISOString(),
        })
        .execute();
    }
    await pageViewRollup.up(legacy);
    const backfilled = await rollupRows(legacy);
    expect(backfilled.days.length).toBe(31);
    expect(backfilled).toEqual(await rollupRows(recorded));
    const at = Date.parse("2026-11-21T16:00:03.000Z");
    expect(await getAnalytics(legacy, at)).toEqual(await rawAnalytics(legacy, at));
  });

  it("leave out what the recorder leaves out: the spec's site-builder referrers", async () => {
    const svc = await createTestServices();
    const request = (path: string, referrer: string) =>
      new Request(`http://localhost${path}`, {
        headers: { Referer: referrer, "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36" },
      });
    const visit = async (path: string, referrer: string) => {
      const context = createTestContext(svc);
      context.set(userContext, null);
      const args = { request: request(path, referrer), params: {}, context, pattern: "" };
      await pageViewMiddleware(
        args as unknown as Parameters<typeof pageViewMiddleware>[0],
        async () => new Response("<html></html>", { headers: { "Content-Type": "text/html" } }),
      );
    };
    await visit("/from-builder", "https://preview.lovable.app/page");
    await visit("/from-search", "https://www.google.com/");
    // Views are queued and written in batches: write them now.
    await flushPageViews();
    expect((await getAnalytics(svc.db)).totalViews).toBe(1);
    const paths = await svc.db.selectFrom("page_view_paths").select("path").execute();
    expect(paths).toEqual([{ path: "/from-search" }]);
    expect(await svc.db.selectFrom("page_views").select("path").execute()).toEqual([{ path: "/from-search" }]);
  });
});
