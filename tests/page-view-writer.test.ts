import { describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { pageViewWriter } from "#db/page-view-writer.server";
import { getAnalytics, type PageView, writePageViews, writePageViewsInTransaction } from "~/models/analytics.server";
import { createCustomer } from "./factories";
import { freshTestDb } from "./setup/db";
import { pageViewTables } from "./setup/page-views";

/*
 * Page views on a SQLite file are written by a worker thread (db/page-view-writer.server.ts,
 * decision 074); PostgreSQL and in-memory SQLite write them in a transaction of their own
 * connection. Both must leave the same rows and figures.
 */

const onPostgres = process.env.SHOP_TEST_DATABASE === "postgres";
const HOUR = 3_600_000;

describe.skipIf(onPostgres)("the page-view writer thread (SQLite)", () => {
  it("is used for a SQLite file", async () => {
    const { db } = await freshTestDb();
    expect(pageViewWriter(db)).not.toBeNull();
  });

  it("leaves the same rows and figures as the one-transaction writer, batch after batch", async () => {
    const [threaded, inline] = [await freshTestDb(), await freshTestDb()];
    // A signed-in reader in each (page_views.user_id is a foreign key; ids differ, shown as "reader").
    const readers = [(await createCustomer(threaded.db)).id, (await createCustomer(inline.db)).id];
    // Hong Kong midnight falls between the views: the second batch spans two days.
    const start = Date.parse("2026-03-01T14:00:00Z");
    const batchesOf = (userId: string): PageView[][] => [
      [
        { path: "/", sessionId: "s-a", userId: null, userAgent: "UA", referrer: null, at: start },
        {
          path: "/category/all",
          sessionId: "s-a",
          userId: null,
          userAgent: "UA",
          referrer: "https://x.hk",
          at: start + 1,
        },
        { path: "/", sessionId: "s-b", userId, userAgent: null, referrer: null, at: start + 2 },
      ],
      [
        { path: "/", sessionId: "s-a", userId: null, userAgent: "UA", referrer: null, at: start + 3 * HOUR },
        { path: "/product/1", sessionId: "s-c", userId: null, userAgent: "UA", referrer: null, at: start + 3 * HOUR },
        { path: "/product/1", sessionId: "s-c", userId: null, userAgent: "UA", referrer: null, at: start + 11 * HOUR },
        { path: "/", sessionId: "s-b", userId, userAgent: null, referrer: null, at: start + 12 * HOUR },
      ],
    ];
    const [threadedBatches, inlineBatches] = readers.map((id) => batchesOf(id as string));
    for (const [i, batch] of (threadedBatches as PageView[][]).entries()) {
      await writePageViews(threaded.db, batch);
      await writePageViewsInTransaction(inline.db, inlineBatches?.[i] as PageView[]);
    }
    const shown = async (db: DB, reader: string | undefined) => {
      const all = await pageViewTables(db);
      return {
        ...all,
        views: all.views.map((view) => ({ ...view, user_id: view.user_id === reader ? "reader" : view.user_id })),
      };
    };
    const written = await shown(threaded.db, readers[0]);
    expect(written.views).toHaveLength(7);
    expect(written.views.filter((view) => view.user_id === "reader")).toHaveLength(2);
    expect(written.days.length).toBeGreaterThanOrEqual(2);
    expect(written).toEqual(await shown(inline.db, readers[1]));
    const at = start + 12 * HOUR;
    expect(await getAnalytics(threaded.db, at)).toEqual(await getAnalytics(inline.db, at));
  });

  it("writes while the event loop goes on, and reports a refused batch", async () => {
    const { db } = await freshTestDb();
    const views: PageView[] = Array.from({ length: 3_000 }, (_, i) => ({
      path: `/p/${i % 40}`,
      sessionId: `session-${i}`,
      userId: null,
      userAgent: "UA",
      referrer: null,
      at: Date.now(),
    }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await writePageViews(db, views);
    clearInterval(timer);
    // The main thread ran timers while the 3,000 views were written (in one thread, none would run).
    expect(ticks).toBeGreaterThan(0);
    expect((await getAnalytics(db)).totalViews).toBe(3_000);
    // A view of a user that does not exist breaks the foreign key: nothing of that batch is kept.
    await expect(
      writePageViews(db, [{ ...views[0], userId: "no-such-user" } as PageView, views[1] as PageView]),
    ).rejects.toThrow(/FOREIGN KEY/);
    expect((await getAnalytics(db)).totalViews).toBe(3_000);
  });
});
