import { sql } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { Currency, OrderStatus } from "#db/schema";

/** The shop's day boundaries are Hong Kong's (UTC+8, no daylight saving). */
const HK_OFFSET_MS = 8 * 60 * 60 * 1000;

export async function recordPageView(
  db: DB,
  view: { path: string; sessionId: string; userId: string | null; userAgent: string | null; referrer: string | null },
): Promise<void> {
  await db
    .insertInto("page_views")
    .values({
      path: view.path.slice(0, 500),
      session_id: view.sessionId,
      user_id: view.userId,
      user_agent: view.userAgent,
      referrer: view.referrer,
      created_at: now(),
    })
    .execute();
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

export async function getAnalytics(db: DB, at = Date.now()): Promise<Analytics> {
  const today = startOfHongKongDay(at);
  const weekAgo = new Date(at - 7 * 86_400_000).toISOString();
  const [all, todays, popular] = await Promise.all([
    db
      .selectFrom("page_views")
      .select((eb) => [
        eb.fn.countAll<number>().as("views"),
        eb.fn.count<number>("session_id").distinct().as("visitors"),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("page_views")
      .select((eb) => [
        eb.fn.countAll<number>().as("views"),
        eb.fn.count<number>("session_id").distinct().as("visitors"),
      ])
      .where("created_at", ">=", today)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("page_views")
      .select((eb) => ["path", eb.fn.countAll<number>().as("views")])
      .where("created_at", ">=", weekAgo)
      .groupBy("path")
      .orderBy("views", "desc")
      .orderBy("path")
      .limit(5)
      .execute(),
  ]);
  return {
    totalViews: Number(all.views),
    uniqueVisitors: Number(all.visitors),
    viewsToday: Number(todays.views),
    visitorsToday: Number(todays.visitors),
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
  const since = new Date(Date.parse(startOfHongKongDay(at)) - (days - 1) * 86_400_000).toISOString();
  // SQLite date arithmetic: the one dialect-specific expression here (PostgreSQL: AT TIME ZONE).
  const hkDay = (column: string) => sql<string>`date(${sql.ref(column)}, '+8 hours')`;
  const [views, orders] = await Promise.all([
    db
      .selectFrom("page_views")
      .select((eb) => [hkDay("created_at").as("day"), eb.fn.countAll<number>().as("n")])
      .where("created_at", ">=", since)
      .groupBy("day")
      .execute(),
    db
      .selectFrom("orders")
      .select((eb) => [hkDay("created_at").as("day"), eb.fn.countAll<number>().as("n")])
      .where("created_at", ">=", since)
      .groupBy("day")
      .execute(),
  ]);
  const viewsByDay = new Map(views.map((row) => [row.day, Number(row.n)]));
  const ordersByDay = new Map(orders.map((row) => [row.day, Number(row.n)]));
  const points: DailyPoint[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(Date.parse(startOfHongKongDay(at)) + HK_OFFSET_MS - i * 86_400_000).toISOString().slice(0, 10);
    points.push({ day, views: viewsByDay.get(day) ?? 0, orders: ordersByDay.get(day) ?? 0 });
  }
  return points;
}

export interface BusinessMetrics {
  totalProducts: number;
  totalOrders: number;
  uniqueCustomers: number;
  /** Never summed across currencies; cancelled orders left out. */
  revenue: { currency: Currency; cents: number }[];
  inventoryValueHkdCents: number;
}

export async function getBusinessMetrics(db: DB): Promise<BusinessMetrics> {
  const [products, orders, revenue, inventory] = await Promise.all([
    db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.count<number>("user_id").distinct().as("customers")])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("orders")
      .select((eb) => ["currency", eb.fn.sum<number>("total_cents").as("cents")])
      .where("status", "!=", "cancelled")
      .groupBy("currency")
      .orderBy("currency")
      .execute(),
    db
      .selectFrom("product_variants")
      .innerJoin("products", "products.id", "product_variants.product_id")
      .select(sql<number>`coalesce(sum(products.price_hkd_cents * product_variants.stock), 0)`.as("cents"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    totalProducts: Number(products.n),
    totalOrders: Number(orders.n),
    uniqueCustomers: Number(orders.customers),
    revenue: revenue.map((row) => ({ currency: row.currency, cents: Number(row.cents) })),
    inventoryValueHkdCents: Number(inventory.cents),
  };
}

export interface RecentOrder {
  id: string;
  shortId: string;
  customer: string;
  status: OrderStatus;
  currency: Currency;
  totalCents: number;
  createdAt: string;
}

export async function listRecentOrders(db: DB, limit = 5): Promise<RecentOrder[]> {
  const rows = await db
    .selectFrom("orders")
    .select(["id", "user_id", "first_name", "last_name", "status", "currency", "total_cents", "created_at"])
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    shortId: row.id.slice(0, 8),
    customer: row.user_id ? row.user_id.slice(0, 8) : "",
    status: row.status,
    currency: row.currency,
    totalCents: row.total_cents,
    createdAt: row.created_at,
  }));
}
