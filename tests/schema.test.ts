import crypto from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest, now } from "#db/connect.server";
import { isPostgres } from "#db/dialect";
import { migrations } from "#db/migrations";
import type { Database } from "#db/schema";
import { createTestDb } from "./setup/db";

const { db } = await createTestDb();

/**
 * Every column of every table in db/schema.ts. The mapped type makes a table missing here a
 * type error, and the test below makes a column missing from the migration a failure.
 */
const COLUMNS: { [T in keyof Database]: Array<keyof Database[T] & string> } = {
  users: [
    "id",
    "email",
    "password_hash",
    "status",
    "locale",
    "last_login_at",
    "last_login_ip",
    "country",
    "city",
    "password_changed_at",
    "email_verified_at",
    "created_at",
    "updated_at",
  ],
  sessions: ["id", "user_id", "data", "ip", "user_agent", "created_at", "last_seen_at", "expires_at"],
  admin_users: ["id", "user_id", "email", "created_at", "role"],
  categories: [
    "id",
    "slug",
    "name_en",
    "name_zh",
    "description_en",
    "description_zh",
    "image_path",
    "is_active",
    "sort_order",
    "is_demo",
    "adult_only",
    "created_at",
    "updated_at",
  ],
  products: [
    "id",
    "category_id",
    "name_en",
    "name_zh",
    "description_en",
    "description_zh",
    "price_hkd_cents",
    "price_gbp_cents",
    "price_eur_cents",
    "price_usd_cents",
    "price_gbp_derived",
    "price_eur_derived",
    "price_usd_derived",
    "is_featured",
    "adult_only",
    "is_demo",
    "weight_grams",
    "sale_price_hkd_cents",
    "sale_price_gbp_cents",
    "sale_price_eur_cents",
    "sale_price_usd_cents",
    "sale_price_gbp_derived",
    "sale_price_eur_derived",
    "sale_price_usd_derived",
    "sale_ends_at",
    "option_name",
    "option_name_zh",
    "gtin",
    "mpn",
    "brand_id",
    "created_at",
    "updated_at",
  ],
  brands: ["id", "name", "name_zh", "slug", "sort_order", "is_demo", "created_at", "updated_at"],
  product_variants: [
    "id",
    "product_id",
    "color",
    "color_zh",
    "stock",
    "sort_order",
    "option_value",
    "option_value_zh",
    "option_order",
    "sku",
  ],
  product_images: ["id", "product_id", "path", "sort_order", "color"],
  carts: ["id", "user_id", "created_at", "updated_at", "discount_code"],
  cart_lines: ["id", "cart_id", "product_id", "color", "option_value", "quantity", "created_at"],
  orders: [
    "id",
    "order_number",
    "user_id",
    "status",
    "currency",
    "locale",
    "subtotal_cents",
    "shipping_cents",
    "total_cents",
    "first_name",
    "last_name",
    "email",
    "phone",
    "address",
    "city",
    "postal_code",
    "country",
    "notes",
    "receipt_path",
    "receipt_uploaded_at",
    "receipt_rejected_reason",
    "tracking_number",
    "submission_key",
    "created_at",
    "updated_at",
    "paid_at",
    "shipped_at",
    "delivered_at",
    "cancelled_at",
    "payment_due_at",
    "payment_reminder_due_at",
    "age_confirmed_at",
    "age_confirmed_ip",
    "payment_reminded_at",
    "payment_expired_at",
    "discount_code",
    "discount_cents",
    "country_code",
    "shipping_zone_id",
    "shipping_zone_name",
    "refunded_cents",
    "carrier",
  ],
  order_refunds: ["id", "order_id", "amount_cents", "currency", "reason", "actor_user_id", "created_at"],
  order_refund_lines: ["refund_id", "order_line_id", "quantity"],
  order_lines: [
    "id",
    "order_id",
    "product_id",
    "name_en",
    "name_zh",
    "color",
    "color_zh",
    "option_name",
    "option_name_zh",
    "option_value",
    "option_value_zh",
    "sku",
    "image_path",
    "unit_price_cents",
    "quantity",
    "line_total_cents",
  ],
  blog_posts: [
    "id",
    "title_en",
    "title_zh",
    "content_en",
    "content_zh",
    "author",
    "image_path",
    "published",
    "published_at",
    "is_demo",
    "created_at",
    "updated_at",
  ],
  bank_accounts: [
    "id",
    "bank_name",
    "account_holder",
    "account_number",
    "fps_id",
    "swift_code",
    "routing_number",
    "bank_address",
    "is_primary",
    "is_demo",
    "created_at",
    "updated_at",
  ],
  site_settings: ["key", "value", "updated_at"],
  page_views: ["id", "path", "session_id", "user_id", "user_agent", "referrer", "created_at"],
  page_view_days: ["day", "views", "visitors", "new_visitors"],
  page_view_paths: ["day", "path", "views"],
  page_view_day_sessions: ["day", "session_id"],
  page_view_sessions: ["session_id", "first_day"],
  sign_in_events: ["id", "user_id", "email", "success", "ip", "country", "city", "user_agent", "created_at"],
  password_reset_tokens: ["token_hash", "user_id", "purpose", "expires_at", "used_at", "created_at"],
  audit_log: ["id", "actor_user_id", "action", "entity_type", "entity_id", "details", "created_at"],
  // rowid is implicit in an FTS5 table: only the indexed columns are listed.
  product_search: ["name_en", "name_zh", "category"],
  rate_limit_hits: ["key", "count", "reset_at"],
  page_cache_version: ["id", "version"],
  visitor_version: ["id", "version"],
  scheduled_jobs: ["name", "locked_until", "last_started_at", "last_finished_at", "last_result"],
  outbox_messages: [
    "id",
    "channel",
    "event",
    "audience",
    "recipient",
    "language",
    "subject",
    "payload",
    "message_key",
    "order_id",
    "webhook_id",
    "status",
    "attempts",
    "next_attempt_at",
    "give_up_at",
    "claimed_until",
    "last_error",
    "last_response_status",
    "created_at",
    "updated_at",
    "sent_at",
    "failed_at",
  ],
  outbox_attempts: ["id", "message_id", "attempted_at", "ok", "response_status", "error", "duration_ms"],
  webhooks: ["id", "name", "url", "secret", "events", "active", "created_at", "updated_at", "secret_created_at"],
  discount_codes: [
    "id",
    "code",
    "kind",
    "percent_bp",
    "free_shipping",
    "amount_hkd_cents",
    "amount_gbp_cents",
    "amount_eur_cents",
    "amount_usd_cents",
    "min_hkd_cents",
    "min_gbp_cents",
    "min_eur_cents",
    "min_usd_cents",
    "starts_at",
    "ends_at",
    "max_uses",
    "max_uses_per_customer",
    "uses_count",
    "applies_to",
    "active",
    "created_at",
    "updated_at",
  ],
  discount_code_categories: ["discount_id", "category_id"],
  discount_code_products: ["discount_id", "product_id"],
  discount_uses: [
    "id",
    "discount_id",
    "order_id",
    "user_id",
    "email",
    "currency",
    "amount_cents",
    "created_at",
    "released_at",
  ],
  shipping_zones: ["id", "name_en", "name_zh", "sort_order", "rest_of_world", "created_at", "updated_at"],
  shipping_zone_countries: ["country_code", "zone_id"],
  shipping_zone_rates: ["zone_id", "currency", "fee_cents", "free_above_cents"],
  shipping_zone_bands: ["zone_id", "currency", "max_grams", "fee_cents"],
  product_ship_zones: ["product_id", "zone_id"],
  category_ship_zones: ["category_id", "zone_id"],
  stock_alerts: [
    "id",
    "variant_id",
    "product_id",
    "email",
    "user_id",
    "locale",
    "status",
    "confirm_token_hash",
    "confirm_expires_at",
    "confirm_sent_at",
    "cancel_token_hash",
    "created_at",
    "confirmed_at",
    "sent_at",
    "cancelled_at",
  ],
  order_notes: ["id", "order_id", "author_user_id", "body", "created_at"],
};

const stamp = now();
let seq = 0;

async function product(): Promise<number> {
  const row = await db
    .insertInto("products")
    .values({
      name_en: `Rifle ${++seq}`,
      name_zh: `長槍 ${seq}`,
      description_en: "",
      description_zh: "",
      price_hkd_cents: 100000,
      price_gbp_cents: 10000,
      price_eur_cents: 11000,
      price_usd_cents: 12000,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function order(values: { subtotal: number; shipping: number; total: number }): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("orders")
    .values({
      id,
      order_number: `HT-${++seq}`,
      user_id: null,
      status: "pending_payment",
      currency: "HKD",
      locale: "en",
      subtotal_cents: values.subtotal,
      shipping_cents: values.shipping,
      total_cents: values.total,
      first_name: "Chan",
      last_name: "Tai Man",
      email: "chan@example.com",
      phone: null,
      address: "1 Nathan Road",
      city: "Hong Kong",
      postal_code: null,
      country: "HK",
      notes: null,
      receipt_path: null,
      receipt_uploaded_at: null,
      receipt_rejected_reason: null,
      tracking_number: null,
      created_at: stamp,
      updated_at: stamp,
      paid_at: null,
      shipped_at: null,
      delivered_at: null,
      cancelled_at: null,
    })
    .execute();
  return id;
}

async function orderLine(orderId: string, unit: number, quantity: number, lineTotal: number) {
  await db
    .insertInto("order_lines")
    .values({
      order_id: orderId,
      product_id: null,
      name_en: "Rifle",
      name_zh: "長槍",
      color: "Black",
      image_path: null,
      unit_price_cents: unit,
      quantity,
      line_total_cents: lineTotal,
    })
    .execute();
}

async function bankAccount(isPrimary: number) {
  await db
    .insertInto("bank_accounts")
    .values({
      bank_name: "HSBC",
      account_holder: "Harbour Tactical Ltd",
      account_number: `${++seq}`,
      is_primary: isPrimary,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

// SQLite's wording, then PostgreSQL's.
const CHECK_FAILED = /CHECK constraint failed|violates check constraint/i;
const UNIQUE_FAILED = /UNIQUE constraint failed|violates unique constraint/i;
const FOREIGN_KEY_FAILED = /FOREIGN KEY constraint failed|violates foreign key constraint/i;

describe("migration", () => {
  it("creates exactly the tables of db/schema.ts, each with its columns", async () => {
    // FTS5 keeps its index in shadow tables (product_search_data, ..._idx, ...): not ours to list.
    const tables = (await db.introspection.getTables()).filter((t) => !/^product_search_/.test(t.name));
    const names = tables.map((table) => table.name).sort();
    // Search has no table on PostgreSQL: pg_trgm indexes on the names serve it (db/search.ts).
    const expectedTables = Object.keys(COLUMNS).filter((name) => !(isPostgres(db) && name === "product_search"));
    expect(names).toEqual(expectedTables.sort());
    for (const table of tables) {
      const expected = COLUMNS[table.name as keyof Database];
      expect(table.columns.map((column) => column.name).sort(), table.name).toEqual([...expected].sort());
    }
  });

  it("recorded every migration and a second run applies nothing", async () => {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
    expect(await migrateToLatest(db)).toEqual([]);
    const after = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(db);
    expect(after.rows[0]?.n).toBe(Object.keys(migrations).length);
  });

  // PostgreSQL always enforces them (the next describe's "foreign keys are enforced" runs on both).
  it.skipIf(process.env.SHOP_TEST_DATABASE === "postgres")(
    "foreign keys are switched on for the connection",
    async () => {
      const result = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
      expect(result.rows[0]?.foreign_keys).toBe(1);
    },
  );
});

describe("constraints", () => {
  it("product_variants.stock cannot go negative", async () => {
    const productId = await product();
    await db.insertInto("product_variants").values({ product_id: productId, color: "Black", stock: 0 }).execute();
    await expect(
      db.insertInto("product_variants").values({ product_id: productId, color: "Tan", stock: -1 }).execute(),
    ).rejects.toThrow(CHECK_FAILED);
    await expect(
      db.updateTable("product_variants").set({ stock: -1 }).where("product_id", "=", productId).execute(),
    ).rejects.toThrow(CHECK_FAILED);
    // One variant per colour.
    await expect(
      db.insertInto("product_variants").values({ product_id: productId, color: "Black", stock: 3 }).execute(),
    ).rejects.toThrow(UNIQUE_FAILED);
    const rows = await db.selectFrom("product_variants").select("stock").where("product_id", "=", productId).execute();
    expect(rows).toEqual([{ stock: 0 }]);
  });

  it("a variant is one colour × option value, and every variant gets a unique SKU", async () => {
    const productId = await product();
    const insert = (color: string, option_value: string, sku?: string) =>
      db
        .insertInto("product_variants")
        .values({ product_id: productId, color, option_value, stock: 1, ...(sku === undefined ? {} : { sku }) })
        .returning(["id", "sku"])
        .executeTakeFirstOrThrow();
    const small = await insert("Black", "S");
    const large = await insert("Black", "L", "");
    await insert("Tan", "S", "TAN-S");
    // Without one (or empty) the database gives "P{product}-{id}": never null, never a duplicate.
    const rows = await db
      .selectFrom("product_variants")
      .select(["id", "sku"])
      .where("product_id", "=", productId)
      .orderBy("id")
      .execute();
    expect(rows.map((row) => row.sku)).toEqual([`P${productId}-${small.id}`, `P${productId}-${large.id}`, "TAN-S"]);
    await expect(insert("Black", "S")).rejects.toThrow(UNIQUE_FAILED);
    await expect(insert("Tan", "L", "TAN-S")).rejects.toThrow(UNIQUE_FAILED);
    await db.updateTable("product_variants").set({ sku: "" }).where("sku", "=", "TAN-S").execute();
    const cleared = await db
      .selectFrom("product_variants")
      .select(["id", "sku"])
      .where("color", "=", "Tan")
      .executeTakeFirstOrThrow();
    expect(cleared.sku).toBe(`P${productId}-${cleared.id}`);
  });

  it("a product has at most five images (sort_order 0..4, each once)", async () => {
    const productId = await product();
    for (let i = 0; i < 5; i++) {
      await db
        .insertInto("product_images")
        .values({ product_id: productId, path: `products/${i}.webp`, sort_order: i })
        .execute();
    }
    await expect(
      db
        .insertInto("product_images")
        .values({ product_id: productId, path: "products/5.webp", sort_order: 5 })
        .execute(),
    ).rejects.toThrow(CHECK_FAILED);
    await expect(
      db
        .insertInto("product_images")
        .values({ product_id: productId, path: "products/n.webp", sort_order: -1 })
        .execute(),
    ).rejects.toThrow(CHECK_FAILED);
    await expect(
      db
        .insertInto("product_images")
        .values({ product_id: productId, path: "products/dup.webp", sort_order: 2 })
        .execute(),
    ).rejects.toThrow(UNIQUE_FAILED);
    const count = await db
      .selectFrom("product_images")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("product_id", "=", productId)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(5);
  });

  it("orders.total_cents must equal subtotal + shipping", async () => {
    await expect(order({ subtotal: 10000, shipping: 500, total: 10000 })).rejects.toThrow(CHECK_FAILED);
    await expect(order({ subtotal: 10000, shipping: 500, total: 10501 })).rejects.toThrow(CHECK_FAILED);
    const id = await order({ subtotal: 10000, shipping: 500, total: 10500 });
    await expect(db.updateTable("orders").set({ shipping_cents: 0 }).where("id", "=", id).execute()).rejects.toThrow(
      CHECK_FAILED,
    );
    await db.updateTable("orders").set({ shipping_cents: 0, total_cents: 10000 }).where("id", "=", id).execute();
    await expect(order({ subtotal: -100, shipping: 100, total: 0 })).rejects.toThrow(CHECK_FAILED);
  });

  it("orders.status and currency are limited to the known values", async () => {
    const id = await order({ subtotal: 100, shipping: 0, total: 100 });
    await expect(sql`update orders set status = 'lost' where id = ${id}`.execute(db)).rejects.toThrow(CHECK_FAILED);
    await expect(sql`update orders set currency = 'JPY' where id = ${id}`.execute(db)).rejects.toThrow(CHECK_FAILED);
  });

  it("order_lines.line_total_cents must equal unit × quantity", async () => {
    const orderId = await order({ subtotal: 3000, shipping: 0, total: 3000 });
    await orderLine(orderId, 1000, 3, 3000);
    await expect(orderLine(orderId, 1000, 3, 1000)).rejects.toThrow(CHECK_FAILED);
    await expect(orderLine(orderId, 1000, 3, 3001)).rejects.toThrow(CHECK_FAILED);
    await expect(orderLine(orderId, 1000, 0, 0)).rejects.toThrow(CHECK_FAILED);
    const lines = await db
      .selectFrom("order_lines")
      .select("line_total_cents")
      .where("order_id", "=", orderId)
      .execute();
    expect(lines).toEqual([{ line_total_cents: 3000 }]);
  });

  it("cart_lines.quantity must be positive", async () => {
    const productId = await product();
    const cartId = crypto.randomUUID();
    await db.insertInto("carts").values({ id: cartId, user_id: null, created_at: stamp, updated_at: stamp }).execute();
    const line = (quantity: number, color = "Black") =>
      db
        .insertInto("cart_lines")
        .values({ cart_id: cartId, product_id: productId, color, quantity, created_at: stamp })
        .execute();
    await expect(line(0)).rejects.toThrow(CHECK_FAILED);
    await expect(line(-2)).rejects.toThrow(CHECK_FAILED);
    await line(1);
    await expect(line(2)).rejects.toThrow(UNIQUE_FAILED); // one line per product and colour
    await line(2, "Tan");
    expect(
      await db.selectFrom("cart_lines").select("quantity").where("cart_id", "=", cartId).orderBy("id").execute(),
    ).toEqual([{ quantity: 1 }, { quantity: 2 }]);
  });

  it("only one bank account can be primary", async () => {
    await bankAccount(1);
    await expect(bankAccount(1)).rejects.toThrow(UNIQUE_FAILED);
    await bankAccount(0);
    await bankAccount(0);
    const rows = await db.selectFrom("bank_accounts").select("is_primary").orderBy("id").execute();
    expect(rows.map((row) => row.is_primary)).toEqual([1, 0, 0]);
  });

  it("foreign keys are enforced", async () => {
    await expect(
      db.insertInto("product_variants").values({ product_id: 987654, color: "Black", stock: 1 }).execute(),
    ).rejects.toThrow(FOREIGN_KEY_FAILED);
    await expect(orderLine("no-such-order", 100, 1, 100)).rejects.toThrow(FOREIGN_KEY_FAILED);
    await expect(
      db
        .insertInto("sessions")
        .values({
          id: "x",
          user_id: "no-such-user",
          data: "{}",
          ip: null,
          user_agent: null,
          created_at: stamp,
          last_seen_at: stamp,
          expires_at: stamp,
        })
        .execute(),
    ).rejects.toThrow(FOREIGN_KEY_FAILED);
    expect(await db.selectFrom("product_variants").selectAll().where("product_id", "=", 987654).execute()).toEqual([]);
  });

  it("deleting a product cascades to its variants and images", async () => {
    const productId = await product();
    await db.insertInto("product_variants").values({ product_id: productId, color: "Black", stock: 2 }).execute();
    await db
      .insertInto("product_images")
      .values({ product_id: productId, path: "products/a.webp", sort_order: 0 })
      .execute();
    await db.deleteFrom("products").where("id", "=", productId).execute();
    expect(await db.selectFrom("product_variants").selectAll().where("product_id", "=", productId).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom("product_images").selectAll().where("product_id", "=", productId).execute()).toEqual([]);
  });

  it("users.status is limited to active, inactive and blocked", async () => {
    await expect(
      db
        .insertInto("users")
        .values({
          id: crypto.randomUUID(),
          email: "x@example.com",
          password_hash: "x",
          status: "banned" as never,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute(),
    ).rejects.toThrow(CHECK_FAILED);
  });
});
