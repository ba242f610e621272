import { type Kysely, sql } from "kysely";
import { serialKey } from "./portable";

// Frozen in time: never import application code here. Portable between SQLite and PostgreSQL:
// text ids and ISO timestamps, integer booleans and integer cents; the one spelling that differs
// (a numbered key) comes from ./portable.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("active").check(sql`status in ('active', 'inactive', 'blocked')`),
    )
    .addColumn("locale", "text", (c) => c.notNull().defaultTo("en").check(sql`locale in ('en', 'zh')`))
    .addColumn("last_login_at", "text")
    .addColumn("last_login_ip", "text")
    .addColumn("country", "text")
    .addColumn("city", "text")
    .addColumn("password_changed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_at").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("admin_users")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("email", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("admin_users_identity", sql`user_id is not null or email is not null`)
    .execute();
  await db.schema.createIndex("admin_users_user_id").on("admin_users").column("user_id").unique().execute();
  await db.schema.createIndex("admin_users_email").on("admin_users").expression(sql`lower(email)`).unique().execute();

  await db.schema
    .createTable("categories")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_zh", "text", (c) => c.notNull())
    .addColumn("description_en", "text")
    .addColumn("description_zh", "text")
    .addColumn("image_path", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("categories_active_sort").on("categories").columns(["is_active", "sort_order"]).execute();

  await db.schema
    .createTable("products")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("category_id", "integer", (c) => c.references("categories.id").onDelete("restrict"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_zh", "text", (c) => c.notNull())
    .addColumn("description_en", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description_zh", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("price_hkd_cents", "integer", (c) => c.notNull().check(sql`price_hkd_cents >= 0`))
    .addColumn("price_gbp_cents", "integer", (c) => c.notNull().check(sql`price_gbp_cents >= 0`))
    .addColumn("price_eur_cents", "integer", (c) => c.notNull().check(sql`price_eur_cents >= 0`))
    .addColumn("price_usd_cents", "integer", (c) => c.notNull().check(sql`price_usd_cents >= 0`))
    .addColumn("is_featured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("products_category_created")
    .on("products")
    .columns(["category_id", "created_at"])
    .execute();
  await db.schema.createIndex("products_created").on("products").column("created_at").execute();
  await db.schema
    .createIndex("products_featured_created")
    .on("products")
    .columns(["is_featured", "created_at"])
    .execute();
  await db.schema
    .createIndex("products_category_price")
    .on("products")
    .columns(["category_id", "price_hkd_cents"])
    .execute();

  await db.schema
    .createTable("product_variants")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("color", "text", (c) => c.notNull())
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock >= 0`))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("product_variants_product_color", ["product_id", "color"])
    .execute();

  await db.schema
    .createTable("product_images")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull().check(sql`sort_order between 0 and 4`))
    .addUniqueConstraint("product_images_product_order", ["product_id", "sort_order"])
    .execute();

  await db.schema
    .createTable("carts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.unique().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("carts_updated").on("carts").column("updated_at").execute();

  await db.schema
    .createTable("cart_lines")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("color", "text", (c) => c.notNull().defaultTo("Default"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("cart_lines_cart_product_color", ["cart_id", "product_id", "color"])
    .execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("order_number", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending_payment', 'paid', 'processing', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn("currency", "text", (c) => c.notNull().check(sql`currency in ('HKD', 'GBP', 'EUR', 'USD')`))
    .addColumn("locale", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("subtotal_cents", "integer", (c) => c.notNull().check(sql`subtotal_cents >= 0`))
    .addColumn("shipping_cents", "integer", (c) => c.notNull().check(sql`shipping_cents >= 0`))
    .addColumn("total_cents", "integer", (c) => c.notNull().check(sql`total_cents = subtotal_cents + shipping_cents`))
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("postal_code", "text")
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("notes", "text")
    .addColumn("receipt_path", "text")
    .addColumn("receipt_uploaded_at", "text")
    .addColumn("receipt_rejected_reason", "text")
    .addColumn("tracking_number", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .addColumn("shipped_at", "text")
    .addColumn("delivered_at", "text")
    .addColumn("cancelled_at", "text")
    .execute();
  await db.schema.createIndex("orders_user_created").on("orders").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("orders_status_created").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("orders_created").on("orders").column("created_at").execute();
  await db.schema.createIndex("orders_email").on("orders").column("email").execute();

  await db.schema
    .createTable("order_lines")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.references("products.id").onDelete("set null"))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_zh", "text", (c) => c.notNull())
    .addColumn("color", "text", (c) => c.notNull())
    .addColumn("image_path", "text")
    .addColumn("unit_price_cents", "integer", (c) => c.notNull().check(sql`unit_price_cents >= 0`))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("line_total_cents", "integer", (c) =>
      c.notNull().check(sql`line_total_cents = unit_price_cents * quantity`),
    )
    .execute();
  await db.schema.createIndex("order_lines_order").on("order_lines").column("order_id").execute();
  await db.schema.createIndex("order_lines_product").on("order_lines").column("product_id").execute();

  await db.schema
    .createTable("blog_posts")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("title_en", "text", (c) => c.notNull())
    .addColumn("title_zh", "text", (c) => c.notNull())
    .addColumn("content_en", "text", (c) => c.notNull())
    .addColumn("content_zh", "text", (c) => c.notNull())
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("image_path", "text")
    .addColumn("published", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("published_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("blog_posts_published").on("blog_posts").columns(["published", "published_at"]).execute();

  await db.schema
    .createTable("bank_accounts")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("bank_name", "text", (c) => c.notNull())
    .addColumn("account_holder", "text", (c) => c.notNull())
    .addColumn("account_number", "text", (c) => c.notNull())
    .addColumn("fps_id", "text")
    .addColumn("swift_code", "text")
    .addColumn("routing_number", "text")
    .addColumn("bank_address", "text")
    .addColumn("is_primary", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // At most one primary account.
  await db.schema
    .createIndex("bank_accounts_one_primary")
    .on("bank_accounts")
    .column("is_primary")
    .unique()
    .where(sql.ref("is_primary"), "=", 1)
    .execute();

  await db.schema
    .createTable("site_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("page_views")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("user_agent", "text")
    .addColumn("referrer", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("page_views_created").on("page_views").column("created_at").execute();
  await db.schema
    .createIndex("page_views_session_created")
    .on("page_views")
    .columns(["session_id", "created_at"])
    .execute();
  await db.schema.createIndex("page_views_path_created").on("page_views").columns(["path", "created_at"]).execute();

  await db.schema
    .createTable("sign_in_events")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("success", "integer", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("country", "text")
    .addColumn("city", "text")
    .addColumn("user_agent", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sign_in_events_email_created")
    .on("sign_in_events")
    .columns(["email", "created_at"])
    .execute();
  await db.schema.createIndex("sign_in_events_ip_created").on("sign_in_events").columns(["ip", "created_at"]).execute();
  await db.schema
    .createIndex("sign_in_events_user_created")
    .on("sign_in_events")
    .columns(["user_id", "created_at"])
    .execute();

  await db.schema
    .createTable("password_reset_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "integer", serialKey(db))
    .addColumn("actor_user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity_type", "text", (c) => c.notNull())
    .addColumn("entity_id", "text")
    .addColumn("details", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("audit_log_entity")
    .on("audit_log")
    .columns(["entity_type", "entity_id", "created_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "audit_log",
    "password_reset_tokens",
    "sign_in_events",
    "page_views",
    "site_settings",
    "bank_accounts",
    "blog_posts",
    "order_lines",
    "orders",
    "cart_lines",
    "carts",
    "product_images",
    "product_variants",
    "products",
    "categories",
    "admin_users",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
