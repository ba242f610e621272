import SQLite from "better-sqlite3";
import { type DB, now } from "#db/connect.server";
import * as pageViewRollup from "#db/migrations/0005-page-view-rollup";
import type { Currency, OrderStatus } from "#db/schema";

/**
 * Seeding shared by the benchmarks (bench:admin, bench:dashboard, npm run bench): customers and
 * orders, page views, extra categories. Everything is deterministic and written in batched
 * transactions, so a shop of 10,000 customers, 50,000 orders and 100,000 views takes seconds.
 */

const DAY = 86_400_000;

/* ------------------------------------------------------------------------------------------
 * Seeding: deterministic (a seeded generator), straight through better-sqlite3 in batched
 * transactions so 50,000 orders and ~100,000 lines take a few seconds.
 * ------------------------------------------------------------------------------------------ */

export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  /** `weights` maps each value to its share. */
  const weighted = <T extends string>(weights: Record<T, number>): T => {
    const entries = Object.entries(weights) as [T, number][];
    let roll = next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]?.[0] as T;
  };
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => int(16).toString(16)).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  };
  return { next, int, pick, weighted, uuid };
}

const FIRST = ["chan", "wong", "lee", "cheung", "lau", "ng", "ho", "leung", "smith", "jones", "brown", "lin", "tan"];
const GIVEN = ["siu.ming", "tai.man", "ka.yan", "wing", "james", "emma", "oliver", "mei", "chris", "hoi.yee"];
const DOMAINS = ["gmail.com", "yahoo.com.hk", "outlook.com", "netvigator.com", "icloud.com", "mail.example"];
const CITIES: Record<string, string[]> = {
  HK: ["Hong Kong", "Kowloon", "Sha Tin", "Tsuen Wan", "Tuen Mun"],
  GB: ["London", "Manchester", "Leeds"],
  US: ["New York", "Los Angeles", "Seattle"],
  TW: ["Taipei", "Kaohsiung"],
  MO: ["Macau"],
  JP: ["Tokyo", "Osaka"],
  DE: ["Berlin", "Munich"],
  AU: ["Sydney", "Melbourne"],
  CA: ["Toronto", "Vancouver"],
};
// Taiwan is every fifth account (exactly 2,000: the small export); the rest are weighted.
const COUNTRY_SHARE = { HK: 60, GB: 12, US: 12, MO: 4, JP: 4, DE: 2, AU: 3, CA: 3 };

export interface SeededUser {
  id: string;
  email: string;
  first: string;
  last: string;
  ip: string | null;
  country: string | null;
}

export async function seedShop(
  file: string,
  { customers = 10_000, orders = 50_000 }: { customers?: number; orders?: number } = {},
): Promise<{ users: SeededUser[]; orderIds: string[]; orderNumbers: string[] }> {
  const rand = generator(7);
  const sqlite = new SQLite(file);
  sqlite.pragma("foreign_keys = ON");
  const anchor = Date.now();
  const products = sqlite
    .prepare(
      `select p.id, p.name_en, p.name_zh, p.price_hkd_cents, p.price_gbp_cents, p.price_eur_cents,
        p.price_usd_cents, (select color from product_variants v where v.product_id = p.id order by sort_order limit 1) as color,
        (select path from product_images i where i.product_id = p.id order by sort_order limit 1) as image_path
       from products p`,
    )
    .all() as {
    id: number;
    name_en: string;
    name_zh: string;
    price_hkd_cents: number;
    price_gbp_cents: number;
    price_eur_cents: number;
    price_usd_cents: number;
    color: string | null;
    image_path: string | null;
  }[];
  if (products.length === 0) throw new Error("the demo seed has no products");

  const insertUser = sqlite.prepare(
    `insert into users (id, email, password_hash, status, locale, last_login_at, last_login_ip, country, city, created_at, updated_at)
     values (?, ?, 'x', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSignIn = sqlite.prepare(
    `insert into sign_in_events (user_id, email, success, ip, country, city, user_agent, created_at)
     values (?, ?, ?, ?, ?, null, 'bench', ?)`,
  );
  const ipPool = Array.from(
    { length: 6_000 },
    (_, i) => `203.${80 + (i % 40)}.${Math.floor(i / 40)}.${(i * 37) % 250}`,
  );
  const users: SeededUser[] = [];
  sqlite.transaction(() => {
    for (let n = 0; n < customers; n++) {
      const first = rand.pick(GIVEN);
      const last = rand.pick(FIRST);
      const email = `${first}.${last}${n}@${rand.pick(DOMAINS)}`;
      const created = anchor - 730 * DAY + rand.int(700 * DAY);
      const signedIn = rand.next() < 0.85;
      const country = n % 5 === 0 ? "TW" : rand.next() < 0.875 ? rand.weighted(COUNTRY_SHARE) : null;
      const city = country && rand.next() < 0.6 ? rand.pick(CITIES[country] ?? ["Hong Kong"]) : null;
      const ip = signedIn ? rand.pick(ipPool) : null;
      const lastLogin = signedIn ? Math.max(created, anchor - rand.int(120 * DAY)) : null;
      const status = rand.weighted({ active: 90, inactive: 7, blocked: 3 });
      const user: SeededUser = { id: rand.uuid(), email, first, last, ip, country };
      users.push(user);
      insertUser.run(
        user.id,
        email,
        status,
        rand.next() < 0.4 ? "zh" : "en",
        lastLogin === null ? null : now(new Date(lastLogin)),
        ip,
        country,
        city,
        now(new Date(created)),
        now(new Date(created)),
      );
      if (lastLogin === null) continue;
      // Up to six sign-ins over the last 120 days, one in ten from another address or failed.
      for (let i = 0, count = 1 + rand.int(6); i < count; i++) {
        const at = i === 0 ? lastLogin : Math.max(created, lastLogin - rand.int(120 * DAY));
        const failed = rand.next() < 0.1;
        insertSignIn.run(
          user.id,
          email,
          failed ? 0 : 1,
          rand.next() < 0.9 ? ip : rand.pick(ipPool),
          country,
          now(new Date(at)),
        );
      }
    }
  })();

  const insertOrder = sqlite.prepare(
    `insert into orders (id, order_number, user_id, status, currency, locale, subtotal_cents, shipping_cents, total_cents,
       first_name, last_name, email, phone, address, city, postal_code, country, notes, receipt_path, receipt_uploaded_at,
       receipt_rejected_reason, tracking_number, created_at, updated_at, paid_at, shipped_at, delivered_at, cancelled_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '+852 9123 4567', '1 Nathan Road', 'Kowloon', null, 'HK', null, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLine = sqlite.prepare(
    `insert into order_lines (order_id, product_id, name_en, name_zh, color, image_path, unit_price_cents, quantity, line_total_cents)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAudit = sqlite.prepare(
    `insert into audit_log (actor_user_id, action, entity_type, entity_id, details, created_at)
     values (null, ?, 'order', ?, '{"before":{"status":"pending_payment"}}', ?)`,
  );
  const orderIds: string[] = [];
  const orderNumbers: string[] = [];
  const batch = 5_000;
  for (let start = 0; start < orders; start += batch) {
    sqlite.transaction(() => {
      for (let n = start; n < Math.min(orders, start + batch); n++) {
        // Skewed: a few customers order often, most rarely.
        const user = users[Math.floor(rand.next() ** 2 * users.length)] as SeededUser;
        const created = anchor - rand.int(365 * DAY);
        const recent = anchor - created < 10 * DAY;
        const status: OrderStatus = recent
          ? rand.weighted({ pending_payment: 40, paid: 25, processing: 20, shipped: 10, cancelled: 5 })
          : rand.weighted({ pending_payment: 6, paid: 2, processing: 2, shipped: 8, delivered: 70, cancelled: 12 });
        const currency: Currency = rand.weighted({ HKD: 55, USD: 20, GBP: 15, EUR: 10 });
        const id = rand.uuid();
        const number = `ORD-${created}-${((n * 7919) % 0x1000000).toString(16).toUpperCase().padStart(6, "0")}`;
        orderIds.push(id);
        orderNumbers.push(number);
        const lines = Array.from({ length: 1 + rand.int(3) }, () => {
          const product = rand.pick(products);
          const unit = {
            HKD: product.price_hkd_cents,
            GBP: product.price_gbp_cents,
            EUR: product.price_eur_cents,
            USD: product.price_usd_cents,
          }[currency];
          return { product, unit, quantity: 1 + rand.int(3) };
        });
        const subtotal = lines.reduce((sum, line) => sum + line.unit * line.quantity, 0);
        const shipping = subtotal > 100_000 ? 0 : 5_000;
        const at = (offset: number) => now(new Date(created + offset));
        const paid = status !== "pending_payment" && status !== "cancelled";
        const receipt = status !== "pending_payment" || rand.next() < 0.5;
        insertOrder.run(
          id,
          number,
          user.id,
          status,
          currency,
          rand.next() < 0.4 ? "zh" : "en",
          subtotal,
          shipping,
          subtotal + shipping,
          user.first,
          user.last,
          user.email,
          receipt ? `receipts/${id}.jpg` : null,
          receipt ? at(3_600_000) : null,
          status === "pending_payment" && receipt && rand.next() < 0.1 ? "unreadable" : null,
          status === "shipped" || status === "delivered" ? `SF${n}` : null,
          at(0),
          at(DAY),
          paid ? at(DAY) : null,
          status === "shipped" || status === "delivered" ? at(2 * DAY) : null,
          status === "delivered" ? at(5 * DAY) : null,
          status === "cancelled" ? at(DAY) : null,
        );
        for (const line of lines) {
          insertLine.run(
            id,
            line.product.id,
            line.product.name_en,
            line.product.name_zh,
            line.product.color ?? "Default",
            line.product.image_path,
            line.unit,
            line.quantity,
            line.unit * line.quantity,
          );
        }
        if (paid) insertAudit.run("order.markPaid", id, at(DAY));
      }
    })();
  }
  sqlite.close();
  return { users, orderIds, orderNumbers };
}
/**
 * `count` page views spread over the last 60 days, written straight into page_views; then the
 * rollups are rebuilt with the migration's own backfill (rows written this way skip the
 * recorder's rollups), as an upgrade of a shop with this history would. Returns both times.
 */
export async function seedPageViews(db: DB, count = 100_000): Promise<{ insertMs: number; backfillMs: number }> {
  const paths = ["/", "/category/rifles", "/category/pistols", "/product/1", "/product/2", "/faq", "/cart", "/blog"];
  const started = Date.now();
  for (let batch = 0; batch * 1000 < count; batch++) {
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: Math.min(1000, count - batch * 1000) }, (_, i) => {
        const n = batch * 1000 + i;
        return {
          path: paths[n % paths.length] ?? "/",
          session_id: `s${n % 20_000}`,
          user_id: null,
          user_agent: "bench",
          referrer: null,
          created_at: new Date(Date.now() - (n % 60) * 86_400_000 - (n % 86_400) * 1000).toISOString(),
        };
      });
      for (let i = 0; i < rows.length; i += 100)
        await trx
          .insertInto("page_views")
          .values(rows.slice(i, i + 100))
          .execute();
    });
  }
  const insertMs = Date.now() - started;
  const backfillStarted = Date.now();
  await pageViewRollup.down(db);
  await pageViewRollup.up(db);
  return { insertMs, backfillMs: Date.now() - backfillStarted };
}

/**
 * Adds active categories ("Bench Category N", reusing the demo tiles) until there are `total`,
 * and moves every fifth product into one of them, so the new categories are not empty.
 */
export async function seedExtraCategories(db: DB, total = 50): Promise<number> {
  const existing = await db.selectFrom("categories").select(["id", "image_path", "sort_order"]).execute();
  const tiles = existing.map((c) => c.image_path).filter((p): p is string => p !== null);
  const added: number[] = [];
  const stamp = now();
  for (let n = existing.length; n < total; n++) {
    const { id } = await db
      .insertInto("categories")
      .values({
        slug: `bench-category-${n + 1}`,
        name_en: `Bench Category ${n + 1}`,
        name_zh: `測試分類 ${n + 1}`,
        description_en: "Synthetic category for benchmarks.",
        description_zh: "基準測試用的分類。",
        image_path: tiles[n % Math.max(1, tiles.length)] ?? null,
        is_active: 1,
        sort_order: 100 + n,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    added.push(id);
  }
  if (added.length > 0) {
    const products = await db.selectFrom("products").select("id").orderBy("id").execute();
    await db.transaction().execute(async (trx) => {
      for (const [i, product] of products.entries()) {
        if (i % 5 !== 4) continue;
        await trx
          .updateTable("products")
          .set({ category_id: added[Math.floor(i / 5) % added.length] ?? null })
          .where("id", "=", product.id)
          .execute();
      }
    });
  }
  return existing.length + added.length;
}
