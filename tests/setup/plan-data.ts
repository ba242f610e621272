import SQLite from "better-sqlite3";
import { SEED_CATEGORIES, SEED_PRODUCTS } from "#db/seed/catalogue";

/**
 * A shop shaped like the benchmarks' (bench/catalog.ts, bench/admin.ts, bench/dashboard.ts),
 * smaller so a test stays quick: the demo categories, 3,000 products with three colours and an
 * image each, 1,000 accounts with their sign-ins, 4,000 orders with one to three lines, 5,000
 * page views with their rollups, 200 carts and 6,000 outbox messages (most sent, a few waiting or failed,
 * a few webhooks) with their attempts. Written straight through better-sqlite3 in one
 * transaction (the products' full-text triggers run as in the app). Deterministic. No ANALYZE,
 * as in production: the plans are the ones SQLite picks without statistics.
 */
export const PLAN_DATA = {
  products: 3_000,
  users: 1_000,
  orders: 4_000,
  pageViews: 5_000,
  carts: 200,
  messages: 6_000,
} as const;

const DAY = 86_400_000;

export interface PlanData {
  productIds: number[];
  categoryIds: Map<string, number>;
  userIds: string[];
  orderIds: string[];
  orderNumbers: string[];
  emails: string[];
  ips: string[];
  messageIds: string[];
}

function generator(seed: number) {
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
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => int(16).toString(16)).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  };
  return { next, int, pick, uuid };
}

export function seedPlanData(file: string, anchor = Date.now()): PlanData {
  const rand = generator(11);
  const sqlite = new SQLite(file);
  sqlite.pragma("foreign_keys = ON");
  const iso = (at: number) => new Date(at).toISOString();
  const data: PlanData = {
    productIds: [],
    categoryIds: new Map(),
    userIds: [],
    orderIds: [],
    orderNumbers: [],
    emails: [],
    ips: [],
    messageIds: [],
  };
  try {
    sqlite.transaction(() => {
      const category = sqlite.prepare(
        `insert into categories (slug, name_en, name_zh, is_active, sort_order, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?) returning id`,
      );
      for (const c of SEED_CATEGORIES) {
        const row = category.get(c.slug, c.name_en, c.name_zh, c.is_active, c.sort_order, iso(anchor), iso(anchor)) as {
          id: number;
        };
        data.categoryIds.set(c.slug, row.id);
      }

      // Products: oldest first, so ids grow with created_at as in a real shop.
      const product = sqlite.prepare(
        `insert into products (category_id, name_en, name_zh, description_en, description_zh, price_hkd_cents,
           price_gbp_cents, price_eur_cents, price_usd_cents, is_featured, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      );
      const variant = sqlite.prepare(
        "insert into product_variants (product_id, color, stock, sort_order) values (?, ?, ?, ?)",
      );
      const image = sqlite.prepare("insert into product_images (product_id, path, sort_order) values (?, ?, 0)");
      for (let n = 0; n < PLAN_DATA.products; n++) {
        const source = SEED_PRODUCTS[n % SEED_PRODUCTS.length];
        if (!source) throw new Error("the demo catalogue has no products");
        const created = iso(anchor - (PLAN_DATA.products - n) * 3_600_000);
        const { id } = product.get(
          data.categoryIds.get(source.category) ?? null,
          `${source.name_en} #${n + 1}`,
          `${source.name_zh} #${n + 1}`,
          source.description_en,
          source.description_zh,
          source.price_hkd_cents + (n % 97) * 100,
          source.price_gbp_cents + (n % 97) * 10,
          source.price_eur_cents + (n % 97) * 12,
          source.price_usd_cents + (n % 97) * 13,
          n % 50 === 0 ? 1 : 0,
          created,
          created,
        ) as { id: number };
        data.productIds.push(id);
        ["Black", "Tan", "Olive Drab"].forEach((color, index) => {
          variant.run(id, color, (n + index * 7) % 40, index);
        });
        image.run(id, `products/${n % 40}.webp`);
      }

      const user = sqlite.prepare(
        `insert into users (id, email, password_hash, status, locale, last_login_at, last_login_ip, country, city, created_at, updated_at)
         values (?, ?, 'x', ?, 'en', ?, ?, ?, ?, ?, ?)`,
      );
      const signIn = sqlite.prepare(
        `insert into sign_in_events (user_id, email, success, ip, country, city, user_agent, created_at)
         values (?, ?, ?, ?, ?, null, 'test', ?)`,
      );
      const countries = ["HK", "HK", "HK", "GB", "US", "TW", "MO", "JP"];
      const cities = ["Hong Kong", "Kowloon", "Sha Tin", "London", "Taipei", null];
      data.ips = Array.from({ length: 600 }, (_, i) => `203.${80 + (i % 40)}.${Math.floor(i / 40)}.${(i * 37) % 250}`);
      for (let n = 0; n < PLAN_DATA.users; n++) {
        const id = rand.uuid();
        const email = `${rand.pick(["chan", "wong", "lee", "emma", "james"])}.${n}@example.com`;
        const created = anchor - 400 * DAY + rand.int(390 * DAY);
        const ip = rand.pick(data.ips);
        const lastLogin = Math.max(created, anchor - rand.int(60 * DAY));
        const country = rand.next() < 0.9 ? rand.pick(countries) : null;
        user.run(
          id,
          email,
          rand.next() < 0.95 ? "active" : "blocked",
          iso(lastLogin),
          ip,
          country,
          country ? rand.pick(cities) : null,
          iso(created),
          iso(created),
        );
        data.userIds.push(id);
        data.emails.push(email);
        for (let i = 0, count = 1 + rand.int(5); i < count; i++) {
          signIn.run(id, email, rand.next() < 0.9 ? 1 : 0, ip, country, iso(lastLogin - rand.int(60 * DAY)));
        }
      }

      const order = sqlite.prepare(
        `insert into orders (id, order_number, user_id, status, currency, locale, subtotal_cents, shipping_cents, total_cents,
           first_name, last_name, email, address, city, country, receipt_path, created_at, updated_at)
         values (?, ?, ?, ?, ?, 'en', ?, 5000, ?, 'Siu Ming', 'Chan', ?, '1 Nathan Road', 'Kowloon', 'HK', ?, ?, ?)`,
      );
      const line = sqlite.prepare(
        `insert into order_lines (order_id, product_id, name_en, name_zh, color, unit_price_cents, quantity, line_total_cents)
         values (?, ?, 'Item', '貨品', 'Black', ?, ?, ?)`,
      );
      const statuses = ["pending_payment", "paid", "processing", "shipped", "delivered", "delivered", "cancelled"];
      const currencies = ["HKD", "HKD", "USD", "GBP", "EUR"];
      for (let n = 0; n < PLAN_DATA.orders; n++) {
        // Skewed: a few customers order often, most rarely.
        const index = Math.floor(rand.next() ** 2 * data.userIds.length);
        const created = anchor - rand.int(365 * DAY);
        const id = rand.uuid();
        const number = `ORD-${created}-${((n * 7919) % 0x1000000).toString(16).toUpperCase().padStart(6, "0")}`;
        const lines = Array.from({ length: 1 + rand.int(3) }, () => ({
          product: rand.pick(data.productIds),
          unit: 10_000 + rand.int(200) * 100,
          quantity: 1 + rand.int(3),
        }));
        const subtotal = lines.reduce((sum, l) => sum + l.unit * l.quantity, 0);
        order.run(
          id,
          number,
          data.userIds[index],
          rand.pick(statuses),
          rand.pick(currencies),
          subtotal,
          subtotal + 5000,
          data.emails[index],
          rand.next() < 0.7 ? `receipts/${id}.jpg` : null,
          iso(created),
          iso(created),
        );
        for (const l of lines) line.run(id, l.product, l.unit, l.quantity, l.unit * l.quantity);
        data.orderIds.push(id);
        data.orderNumbers.push(number);
      }

      const view = sqlite.prepare(
        "insert into page_views (path, session_id, user_id, user_agent, referrer, created_at) values (?, ?, null, 'test', null, ?)",
      );
      const paths = ["/", "/category/rifles", "/category/pistols", "/product/1", "/cart", "/blog"];
      for (let n = 0; n < PLAN_DATA.pageViews; n++) {
        view.run(paths[n % paths.length], `s${n % 1_500}`, iso(anchor - (n % 60) * DAY - (n % 86_400) * 1000));
      }
      // Rollups: one row a day and a path a day is all the dashboard reads.
      const day = sqlite.prepare(
        "insert into page_view_days (day, views, visitors, new_visitors) values (?, 80, 40, 10) on conflict do nothing",
      );
      const dayPath = sqlite.prepare(
        "insert into page_view_paths (day, path, views) values (?, ?, 10) on conflict do nothing",
      );
      for (let d = 0; d < 60; d++) {
        const date = iso(anchor - d * DAY).slice(0, 10);
        day.run(date);
        for (const p of paths) dayPath.run(date, p);
      }

      const cart = sqlite.prepare("insert into carts (id, user_id, created_at, updated_at) values (?, null, ?, ?)");
      const cartLine = sqlite.prepare(
        "insert into cart_lines (cart_id, product_id, color, quantity, created_at) values (?, ?, 'Black', 1, ?)",
      );
      for (let n = 0; n < PLAN_DATA.carts; n++) {
        const id = rand.uuid();
        const at = iso(anchor - rand.int(30 * DAY));
        cart.run(id, at, at);
        for (let i = 0; i < 2; i++) cartLine.run(id, rand.pick(data.productIds), at);
      }

      const message = sqlite.prepare(
        `insert into outbox_messages (id, channel, event, audience, recipient, language, subject, payload, message_key,
           order_id, webhook_id, status, attempts, next_attempt_at, give_up_at, claimed_until, last_error,
           last_response_status, created_at, updated_at, sent_at, failed_at)
         values (?, ?, ?, ?, ?, 'en', ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, null, ?, ?, ?, ?)`,
      );
      const attempt = sqlite.prepare(
        "insert into outbox_attempts (message_id, attempted_at, ok, response_status, error, duration_ms) values (?, ?, ?, null, ?, 40)",
      );
      const payload = JSON.stringify({ text: "Thank you for your order. ".repeat(20), html: "<p>Thank you</p>" });
      for (let n = 0; n < PLAN_DATA.messages; n++) {
        const id = rand.uuid();
        const created = anchor - rand.int(120 * DAY);
        const roll = rand.next();
        const status = roll < 0.9 ? "sent" : roll < 0.96 ? "pending" : roll < 0.99 ? "failed" : "sending";
        const webhook = rand.next() < 0.05;
        const orderIndex = rand.int(data.orderIds.length);
        const recipient = webhook
          ? "https://hooks.example.com/shop"
          : (data.emails[rand.int(data.emails.length)] as string);
        const sentAt = status === "sent" ? iso(created + 2_000) : null;
        message.run(
          id,
          webhook ? "webhook" : "email",
          rand.pick(["order.placed", "order.paid", "order.shipped", "alert.order.placed"]),
          webhook ? "webhook" : "customer",
          recipient,
          `Order ${data.orderNumbers[orderIndex]}`,
          payload,
          `<${id}@shop.example>`,
          rand.next() < 0.9 ? data.orderIds[orderIndex] : null,
          webhook ? "hook-1" : null,
          status,
          status === "pending" ? rand.int(3) : 1,
          iso(created + 60_000),
          iso(created + DAY),
          status === "failed" ? "connect ECONNREFUSED" : null,
          iso(created),
          iso(created),
          sentAt,
          status === "failed" ? iso(created + DAY) : null,
        );
        if (status !== "pending")
          attempt.run(id, iso(created + 1_000), status === "sent" ? 1 : 0, status === "failed" ? "refused" : null);
        data.messageIds.push(id);
      }
    })();
  } finally {
    sqlite.close();
  }
  return data;
}
