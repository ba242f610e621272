import { sql } from "kysely";
import { type DB, now, relaxedTransaction } from "#db/connect.server";
import { hongKongDay } from "#db/dialect";
import { pageViewWriter } from "#db/page-view-writer.server";
import { CURRENCIES, type Currency, type OrderStatus } from "#db/schema";
import { hongKongDate } from "~/lib/dates";
import { SPENDING_STATUSES } from "./customers.server";
import { type ShownOrderStatus, shownStatus } from "./orders/status";

export { hongKongDate };

/** The shop's day boundaries are Hong Kong's (UTC+8, no daylight saving). */
const HK_OFFSET_MS = 8 * 60 * 60 * 1000;

/** One storefront page view, as the page-view buffer (app/request/page-views.server.ts) queues it. */
export interface PageView {
  path: string;
  sessionId: string;
  userId: string | null;
  userAgent: string | null;
  referrer: string | null;
  /** When it was seen (ms since the epoch). */
  at: number;
}

/**
 * Records one storefront page view and its rollups (see writePageViews). The server records
 * views in batches through the page-view buffer; this is the one-view form, for scripts and tests.
 */
export async function recordPageView(
  db: DB,
  view: { path: string; sessionId: string; userId: string | null; userAgent: string | null; referrer: string | null },
  at = Date.now(),
): Promise<void> {
  await writePageViews(db, [{ ...view, at }]);
}

/** Rows per multi-row statement: far below SQLite's and PostgreSQL's bound-parameter limits. */
const ROWS_PER_STATEMENT = 500;

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/**
 * Records a batch of storefront page views and keeps the dashboard's rollups (page_view_days,
 * _paths, _day_sessions, _sessions) in step, in one transaction: the dashboard then reads a few
 * hundred rollup rows instead of counting every view (docs/decisions/010-page-view-rollups.md),
 * and the batch costs one commit (docs/decisions/030-page-view-buffer.md), one that does not wait
 * for the disk (`relaxedTransaction`, decision 074: a power cut may lose the last views, never an
 * order). The figures are those
 * of recording the views one by one in order: a session counts as a visitor once per Hong Kong
 * day and as a new visitor on the first day it is seen. The caller decides what counts as a view
 * (bots, /admin and the spec's site-builder referrers are left out by countPageVisit); every
 * recorded view counts in every total.
 *
 * PostgreSQL: transactions from several processes upsert the same rollup rows. Each statement
 * touches its rows in key order and the tables in one fixed order, so two batches wait for each
 * other rather than deadlock; ON CONFLICT then adds to what the other committed.
 */
export async function writePageViews(db: DB, views: PageView[]): Promise<void> {
  if (views.length === 0) return;
  // A SQLite file: written by a worker thread, off the event loop (db/page-view-writer.server.ts).
  const writer = pageViewWriter(db);
  if (writer) {
    await writer.write(
      views.map((view) => ({
        path: view.path.slice(0, 500),
        sessionId: view.sessionId,
        userId: view.userId,
        userAgent: view.userAgent,
        referrer: view.referrer,
        createdAt: now(new Date(view.at)),
        day: hongKongDate(view.at),
      })),
    );
    return;
  }
  await writePageViewsInTransaction(db, views);
}

/** `writePageViews` in one transaction of `db`'s own connection: PostgreSQL, in-memory SQLite, tests. */
export async function writePageViewsInTransaction(db: DB, views: PageView[]): Promise<void> {
  if (views.length === 0) return;
  const rows = views.map((view) => ({ ...view, path: view.path.slice(0, 500), day: hongKongDate(view.at) }));
  const daySessions = new Map<string, { day: string; session_id: string }>();
  const firstDays = new Map<string, string>();
  const days = new Map<string, { day: string; views: number; visitors: number; new_visitors: number }>();
  const paths = new Map<string, { day: string; path: string; views: number }>();
  for (const row of rows) {
    daySessions.set(`${row.day} ${row.sessionId}`, { day: row.day, session_id: row.sessionId });
    const first = firstDays.get(row.sessionId);
    if (first === undefined || row.day < first) firstDays.set(row.sessionId, row.day);
    const day = days.get(row.day) ?? { day: row.day, views: 0, visitors: 0, new_visitors: 0 };
    day.views++;
    days.set(row.day, day);
    const key = `${row.day} ${row.path}`;
    const path = paths.get(key) ?? { day: row.day, path: row.path, views: 0 };
    path.views++;
    paths.set(key, path);
  }
  const byKey = <T>(map: Map<string, T>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await relaxedTransaction(db, async (trx) => {
    for (const chunk of chunks(rows)) {
      await trx
        .insertInto("page_views")
        .values(
          chunk.map((row) => ({
            path: row.path,
            session_id: row.sessionId,
            user_id: row.userId,
            user_agent: row.userAgent,
            referrer: row.referrer,
            created_at: now(new Date(row.at)),
          })),
        )
        .execute();
    }
    // ON CONFLICT … DO NOTHING RETURNING: the same upserts in SQLite and PostgreSQL. A row that
    // comes back was inserted: the session's first view that day, or ever.
    for (const chunk of chunks(byKey(daySessions).map(([, row]) => row))) {
      const inserted = await trx
        .insertInto("page_view_day_sessions")
        .values(chunk)
        .onConflict((oc) => oc.columns(["day", "session_id"]).doNothing())
        .returning("day")
        .execute();
      for (const { day } of inserted) {
        const total = days.get(day);
        if (total) total.visitors++;
      }
    }
    const sessions = byKey(firstDays).map(([session_id, first_day]) => ({ session_id, first_day }));
    for (const chunk of chunks(sessions)) {
      const inserted = await trx
        .insertInto("page_view_sessions")
        .values(chunk)
        .onConflict((oc) => oc.column("session_id").doNothing())
        .returning("first_day")
        .execute();
      for (const { first_day } of inserted) {
        const total = days.get(first_day);
        if (total) total.new_visitors++;
      }
    }
    for (const chunk of chunks(byKey(days).map(([, row]) => row))) {
      await trx
        .insertInto("page_view_days")
        .values(chunk)
        .onConflict((oc) =>
          oc.column("day").doUpdateSet((eb) => ({
            // Qualified: PostgreSQL finds a bare `views` ambiguous between the row and `excluded`.
            views: eb("page_view_days.views", "+", eb.ref("excluded.views")),
            visitors: eb("page_view_days.visitors", "+", eb.ref("excluded.visitors")),
            new_visitors: eb("page_view_days.new_visitors", "+", eb.ref("excluded.new_visitors")),
          })),
        )
        .execute();
    }
    for (const chunk of chunks(byKey(paths).map(([, row]) => row))) {
      await trx
        .insertInto("page_view_paths")
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(["day", "path"]).doUpdateSet((eb) => ({
            views: eb("page_view_paths.views", "+", eb.ref("excluded.views")),
          })),
        )
        .execute();
    }
  });
}

/** Start of today in Hong Kong, as a UTC ISO timestamp. */
export function startOfHongKongDay(at = Date.now()): string {
  const local = at + HK_OFFSET_MS;
  return new Date(local - (local % 86_400_000) - HK_OFFSET_MS).toISOString();
}

export interface Analytics {
  totalViews: number;
  uniqueVisitors: number;
  viewsToday: number;
  visitorsToday: number;
  popularPages: { path: string; views: number }[];
}

/**
 * The dashboard's visitor cards, read from the rollups: all-time views and unique visitors
 * (a session seen on several days counts once), today's views and visitors (Hong Kong day),
 * and the five most viewed paths of the last 7 × 24 hours (ties by path; '' shows as '/').
 */
export async function getAnalytics(db: DB, at = Date.now()): Promise<Analytics> {
  const today = hongKongDate(at);
  const weekAgo = at - 7 * 86_400_000;
  // The 7-day window starts part-way through a Hong Kong day: whole days come from the
  // rollup, the part of that first day from page_views (an index range of under a day).
  const firstDay = hongKongDate(weekAgo);
  const firstDayEnd = new Date(Date.parse(startOfHongKongDay(weekAgo)) + 86_400_000).toISOString();
  const [all, todays, popular] = await Promise.all([
    db
      .selectFrom("page_view_days")
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>("views"), eb.lit(0)).as("views"),
        eb.fn.coalesce(eb.fn.sum<number>("new_visitors"), eb.lit(0)).as("visitors"),
      ])
      .executeTakeFirstOrThrow(),
    db.selectFrom("page_view_days").select(["views", "visitors"]).where("day", "=", today).executeTakeFirst(),
    db
      .selectFrom(
        db
          .selectFrom("page_view_paths")
          .select(["path", "views"])
          .where("day", ">", firstDay)
          .unionAll(
            db
              .selectFrom("page_views")
              .select((eb) => ["path", eb.lit(1).as("views")])
              .where("created_at", ">=", new Date(weekAgo).toISOString())
              .where("created_at", "<", firstDayEnd),
          )
          .as("recent"),
      )
      .select((eb) => ["path", eb.fn.sum<number>("views").as("views")])
      .groupBy("path")
      .orderBy("views", "desc")
      .orderBy("path")
      .limit(5)
      .execute(),
  ]);
  return {
    totalViews: Number(all.views),
    uniqueVisitors: Number(all.visitors),
    viewsToday: Number(todays?.views ?? 0),
    visitorsToday: Number(todays?.visitors ?? 0),
    popularPages: popular.map((row) => ({ path: row.path || "/", views: Number(row.views) })),
  };
}

export interface DailyPoint {
  day: string; // YYYY-MM-DD, Hong Kong date
  views: number;
  orders: number;
}

/** Views and orders per Hong Kong day for the last `days` days (oldest first, zero-filled). */
export async function getDailySeries(db: DB, days = 30, at = Date.now()): Promise<DailyPoint[]> {
  const sinceAt = Date.parse(startOfHongKongDay(at)) - (days - 1) * 86_400_000;
  const since = new Date(sinceAt).toISOString();
  const [views, orders] = await Promise.all([
    db.selectFrom("page_view_days").select(["day", "views as n"]).where("day", ">=", hongKongDate(sinceAt)).execute(),
    db
      .selectFrom("orders")
      .select((eb) => [hongKongDay(db, "orders.created_at").as("day"), eb.fn.countAll<number>().as("n")])
      .where("created_at", ">=", since)
      .groupBy("day")
      .execute(),
  ]);
  const viewsByDay = new Map(views.map((row) => [row.day, Number(row.n)]));
  const ordersByDay = new Map(orders.map((row) => [row.day, Number(row.n)]));
  const points: DailyPoint[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = hongKongDate(Date.parse(startOfHongKongDay(at)) - i * 86_400_000);
    points.push({ day, views: viewsByDay.get(day) ?? 0, orders: ordersByDay.get(day) ?? 0 });
  }
  return points;
}

export interface CurrencyTotal {
  currency: Currency;
  /** How many orders. */
  count: number;
  cents: number;
}

export interface BusinessMetrics {
  totalProducts: number;
  totalOrders: number;
  uniqueCustomers: number;
  /** Orders paid for (paid, processing, shipped, delivered), net of their refunds, per currency, in the order of CURRENCIES. */
  revenue: CurrencyTotal[];
  /** Orders waiting for their payment to be confirmed (pending_payment), per currency. */
  pending: CurrencyTotal[];
  inventoryValueHkdCents: number;
}

const PAID = new Set<OrderStatus>(SPENDING_STATUSES);

/**
 * The dashboard's business cards. Revenue is what customers have paid: the orders an admin has
 * marked paid and every later step (SPENDING_STATUSES, as the customers screen counts
 * spending); orders still waiting for payment are shown apart, and cancelled ones count
 * nowhere. Money is never summed across currencies: one figure per currency.
 */
export async function getBusinessMetrics(db: DB): Promise<BusinessMetrics> {
  const [products, orders, byStatus, inventory] = await Promise.all([
    db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.count<number>("user_id").distinct().as("customers")])
      .executeTakeFirstOrThrow(),
    // One pass over the orders for both figures. Grouped by currency first: SQLite then reads
    // the covering orders_customer_totals index; by status first it walks
    // orders_status_created_id and fetches every order's row for its currency and total.
    db
      .selectFrom("orders")
      .select((eb) => [
        "currency",
        "status",
        eb.fn.countAll<number>().as("n"),
        eb.fn.sum<number>("total_cents").as("cents"),
        eb.fn.sum<number>("refunded_cents").as("refunded"),
      ])
      .where("status", "!=", "cancelled")
      .groupBy(["currency", "status"])
      .execute(),
    db
      .selectFrom("product_variants")
      .innerJoin("products", "products.id", "product_variants.product_id")
      .select(sql<number>`coalesce(sum(products.price_hkd_cents * product_variants.stock), 0)`.as("cents"))
      .executeTakeFirstOrThrow(),
  ]);
  const revenue = new Map<Currency, CurrencyTotal>();
  const pending = new Map<Currency, CurrencyTotal>();
  for (const row of byStatus) {
    const into = PAID.has(row.status) ? revenue : row.status === "pending_payment" ? pending : null;
    if (!into) continue;
    const total = into.get(row.currency) ?? { currency: row.currency, count: 0, cents: 0 };
    total.count += Number(row.n);
    // Revenue is net of refunds (docs/decisions/057); nothing of a pending order is refunded.
    total.cents += Number(row.cents) - Number(row.refunded ?? 0);
    into.set(row.currency, total);
  }
  const inOrder = (totals: Map<Currency, CurrencyTotal>) =>
    CURRENCIES.flatMap((currency) => {
      const total = totals.get(currency);
      return total ? [total] : [];
    });
  return {
    totalProducts: Number(products.n),
    totalOrders: Number(orders.n),
    uniqueCustomers: Number(orders.customers),
    revenue: inOrder(revenue),
    pending: inOrder(pending),
    inventoryValueHkdCents: Number(inventory.cents),
  };
}

export interface RecentOrder {
  id: string;
  orderNumber: string;
  /** The name given with the order (not the account's e-mail). */
  firstName: string;
  lastName: string;
  /** As every page names it (shownStatus): a receipt in review is not "awaiting payment". */
  status: ShownOrderStatus;
  currency: Currency;
  totalCents: number;
  createdAt: string;
}

/** The latest orders, newest first, each with its ORD number and the name it was placed under. */
export async function listRecentOrders(db: DB, limit = 5): Promise<RecentOrder[]> {
  const rows = await db
    .selectFrom("orders")
    .select([
      "id",
      "order_number",
      "first_name",
      "last_name",
      "status",
      "receipt_path",
      "receipt_rejected_reason",
      "currency",
      "total_cents",
      "created_at",
    ])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    orderNumber: row.order_number,
    firstName: row.first_name,
    lastName: row.last_name,
    status: shownStatus(row),
    currency: row.currency,
    totalCents: row.total_cents,
    createdAt: row.created_at,
  }));
}
