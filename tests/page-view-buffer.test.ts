import { afterEach, describe, expect, it, vi } from "vitest";
import type { DB } from "#db/connect.server";
import { logger } from "~/lib/log.server";
import { getAnalytics, type PageView, writePageViews } from "~/models/analytics.server";
import {
  countPageVisit,
  FLUSH_AT,
  flushPageViews,
  MAX_QUEUED,
  type PageVisit,
  VIEWS_PER_TRANSACTION,
  visitCookie,
  visitIdOf,
  visitSetCookie,
} from "~/request/page-views.server";
import { freshTestDb } from "./setup/db";
import { pageViewTables } from "./setup/page-views";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

function visit(path: string, more: Partial<PageVisit> = {}): PageVisit {
  return {
    method: "GET",
    path,
    status: 200,
    contentType: "text/html; charset=utf-8",
    cookieHeader: null,
    userAgent: BROWSER,
    referrer: null,
    userId: null,
    ...more,
  };
}

/** Views over a Hong Kong midnight (16:00 UTC), sessions seen again, on both days and before. */
function sampleViews(): PageView[] {
  const start = Date.parse("2026-11-21T15:58:00Z");
  const views: PageView[] = [];
  for (let i = 0; i < 240; i++) {
    views.push({
      path: ["/", "/category/all", "/product/a", "/faq", "/search"][i % 5] ?? "/",
      sessionId: `session-${String(i % 17).padStart(2, "0")}`,
      userId: null,
      userAgent: "UA",
      referrer: i % 3 === 0 ? "https://www.google.com/" : null,
      at: start + i * 1_000,
    });
  }
  return views;
}

afterEach(async () => {
  await flushPageViews();
  vi.restoreAllMocks();
});

describe("page-view buffer", () => {
  it("writes a batch in one go with the same rows and rollups as recording the views one by one", async () => {
    const { db: oneByOne } = await freshTestDb();
    const { db: batched } = await freshTestDb();
    // Sessions already seen before the batch must not count as new again.
    const earlier = sampleViews()
      .slice(0, 20)
      .map((view) => ({ ...view, at: view.at - 3 * 86_400_000 }));
    for (const db of [oneByOne, batched]) for (const view of earlier) await writePageViews(db, [view]);

    for (const view of sampleViews()) await writePageViews(oneByOne, [view]);
    await writePageViews(batched, sampleViews());

    const expected = await pageViewTables(oneByOne);
    expect(expected.views).toHaveLength(260);
    expect(expected.days.map((row) => row.day)).toEqual(["2026-11-18", "2026-11-21", "2026-11-22"]);
    expect(await pageViewTables(batched)).toEqual(expected);
    const at = Date.parse("2026-11-22T00:00:00Z");
    expect(await getAnalytics(batched, at)).toEqual(await getAnalytics(oneByOne, at));
  });

  it("queues counted visits and writes them on flush, with the visit cookie kept across pages", async () => {
    const { db } = await freshTestDb();
    const first = await countPageVisit(db, visit("/category/all"));
    expect(first).toMatch(/^visit=[^;]+; Max-Age=1800; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = first?.split(";")[0] ?? "";
    expect(await countPageVisit(db, visit("/faq", { cookieHeader: cookie, userId: null }))).toBe(first);
    // Nothing is written on the request path.
    expect(await db.selectFrom("page_views").select("path").execute()).toEqual([]);

    await flushPageViews();
    const tables = await pageViewTables(db);
    expect(tables.views.map((row) => row.path)).toEqual(["/category/all", "/faq"]);
    expect(new Set(tables.views.map((row) => row.session_id)).size).toBe(1);
    expect(tables.days).toMatchObject([{ views: 2, visitors: 1, new_visitors: 1 }]);
  });

  it("counts only storefront documents that succeeded, not bots, /admin, .data or the site-builder's referrals", async () => {
    const { db } = await freshTestDb();
    const refused: PageVisit[] = [
      visit("/", { userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" }),
      visit("/", { userAgent: "Mozilla/5.0 HeadlessChrome/156.0.0.0" }),
      visit("/admin"),
      visit("/admin/orders"),
      visit("/resources/search"),
      visit("/assets/app.js"),
      visit("/uploads/a.webp"),
      visit("/category/all.data"),
      visit("/", { method: "POST" }),
      visit("/", { method: "HEAD" }),
      visit("/missing", { status: 404 }),
      visit("/", { status: 500 }),
      visit("/feed", { contentType: "application/json" }),
      visit("/", { contentType: null }),
      visit("/", { referrer: "https://preview.lovable.app/page" }),
    ];
    for (const refusedVisit of refused) expect(await countPageVisit(db, refusedVisit), refusedVisit.path).toBeNull();
    expect(await countPageVisit(db, visit("/administrators"))).not.toBeNull();
    await flushPageViews();
    expect(await db.selectFrom("page_views").select("path").execute()).toEqual([{ path: "/administrators" }]);
  });

  it("writes queued views by itself within the interval, and at once when a batch is full", async () => {
    const { db } = await freshTestDb();
    await countPageVisit(db, visit("/"));
    await vi.waitFor(async () => expect(await db.selectFrom("page_views").select("path").execute()).toHaveLength(1), {
      timeout: 5_000,
      interval: 100,
    });
    for (let i = 0; i < FLUSH_AT; i++) await countPageVisit(db, visit(`/p/${i}`));
    // The full batch is written without waiting for the interval.
    await vi.waitFor(
      async () => expect(await db.selectFrom("page_views").select("id").execute()).toHaveLength(FLUSH_AT + 1),
      { timeout: 1_500, interval: 50 },
    );
  });

  it("writes a full batch in slices, letting requests run between them (decision 074)", async () => {
    const { db } = await freshTestDb();
    for (let i = 0; i < FLUSH_AT - 1; i++) await countPageVisit(db, visit(`/p/${i}`));
    // The last view starts the batch; a request that comes meanwhile runs before the batch ends.
    await countPageVisit(db, visit("/last"));
    const seenMeanwhile = await new Promise<number>((resolve) => {
      setImmediate(async () => resolve((await db.selectFrom("page_views").select("id").execute()).length));
    });
    expect(seenMeanwhile).toBeLessThan(FLUSH_AT);
    expect(seenMeanwhile % VIEWS_PER_TRANSACTION).toBe(0); // whole slices, each its own transaction
    await flushPageViews();
    expect(await db.selectFrom("page_views").select("id").execute()).toHaveLength(FLUSH_AT);
    expect((await getAnalytics(db)).totalViews).toBe(FLUSH_AT);
  });

  it("holds at most MAX_QUEUED views while the database is stuck, dropping (and logging) the rest", async () => {
    const { db } = await freshTestDb();
    const logged = vi.spyOn(logger, "warn").mockImplementation(() => {});
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A database whose transactions wait until released: the first full batch stays in flight.
    const stuck = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "transaction") return Reflect.get(target, property, receiver);
        return () => ({
          execute: async (work: Parameters<ReturnType<DB["transaction"]>["execute"]>[0]) => {
            await gate;
            return target.transaction().execute(work);
          },
        });
      },
    }) as DB;
    const extra = 25;
    for (let i = 0; i < FLUSH_AT + MAX_QUEUED + extra; i++) await countPageVisit(stuck, visit("/"));
    expect(logged.mock.calls.filter(([message]) => String(message).includes("dropping"))).toHaveLength(1);

    release();
    await flushPageViews();
    const stored = await db
      .selectFrom("page_views")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(FLUSH_AT + MAX_QUEUED);
    expect(logged.mock.calls.some(([message]) => String(message).includes(`${extra} dropped`))).toBe(true);
  });

  it("flushes an empty queue as a no-op", async () => {
    const { db } = await freshTestDb();
    await flushPageViews();
    await flushPageViews();
    expect(await pageViewTables(db)).toMatchObject({ views: [], days: [], paths: [] });
  });

  it("keeps one queue per database", async () => {
    const { db: a } = await freshTestDb();
    const { db: b } = await freshTestDb();
    await countPageVisit(a, visit("/a"));
    await countPageVisit(b, visit("/b"));
    await countPageVisit(b, visit("/b2"));
    await flushPageViews();
    expect(await a.selectFrom("page_views").select("path").execute()).toEqual([{ path: "/a" }]);
    expect(await b.selectFrom("page_views").select("path").orderBy("path").execute()).toEqual([
      { path: "/b" },
      { path: "/b2" },
    ]);
  });
});

describe("the visit cookie, written and read without the cookie parser (decision 078)", () => {
  const ids = ["0123456789abcdef0123456789abcdef", "A_b-C_d-0123456789", "x".repeat(64)];

  it("is exactly what visitCookie.serialize writes, with and without Secure", async () => {
    for (const id of ids) {
      expect(visitSetCookie(id, false)).toBe(await visitCookie.serialize(id, { secure: false }));
      expect(visitSetCookie(id, true)).toBe(await visitCookie.serialize(id, { secure: true }));
    }
  });

  it("reads the id visitCookie.parse reads, among other cookies, and nothing from a bad value", async () => {
    for (const id of ids) {
      const pair = (await visitCookie.serialize(id)).split(";")[0];
      expect(visitIdOf(`lng=zh; ${pair}; sid=abc`)).toBe(id);
      expect(visitIdOf(pair ?? "")).toBe(await visitCookie.parse(pair ?? ""));
    }
    expect(visitIdOf(null)).toBeNull();
    expect(visitIdOf("visit=")).toBeNull();
    expect(visitIdOf("visit=%E0%A4%A")).toBeNull();
    expect(visitIdOf("visit=not-base64-json")).toBeNull();
    // Valid JSON but not an id this server makes (too short, bad characters, not a string).
    for (const value of ['"short"', '"has spaces in it 0123456789"', "12345678901234567890", '{"a":1}']) {
      expect(visitIdOf(`visit=${encodeURIComponent(Buffer.from(value).toString("base64"))}`)).toBeNull();
    }
  });
});
