import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/**
 * One typed interface per table. Timestamps are ISO-8601 UTC text written by the application
 * (portable between SQLite and PostgreSQL); booleans are integers 0/1; money is integer cents.
 */

type Timestamp = string;
type Bool = number;
type CreatedAt = ColumnType<Timestamp, Timestamp | undefined, never>;

export const CURRENCIES = ["HKD", "GBP", "EUR", "USD"] as const;
export type Currency = (typeof CURRENCIES)[number];

export const ORDER_STATUSES = ["pending_payment", "paid", "processing", "shipped", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const USER_STATUSES = ["active", "inactive", "blocked"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export type Locale = "en" | "zh";

export interface UsersTable {
  id: string;
  email: string; // stored lower-cased
  password_hash: string;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  locale: ColumnType<Locale, Locale | undefined, Locale>;
  last_login_at: Timestamp | null;
  last_login_ip: string | null;
  country: string | null;
  city: string | null;
  password_changed_at: Timestamp | null;
  email_verified_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** sha256 of the cookie token: a leaked database does not leak live sessions. */
  id: string;
  user_id: string | null;
  data: string; // JSON
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

/** owner: everything; staff: orders, products, categories, blog (docs/decisions/037). */
export type AdminRole = "owner" | "staff";

export interface AdminUsersTable {
  id: Generated<number>;
  user_id: string | null;
  email: string | null;
  role: ColumnType<AdminRole, AdminRole | undefined, AdminRole>;
  created_at: CreatedAt;
}

/** A brand (migration 0025, docs/decisions/052): a proper noun, optionally with a Chinese name. */
export interface BrandsTable {
  id: Generated<number>;
  name: string;
  /** Shown in Chinese instead of `name`; null: the same name in both languages. */
  name_zh: string | null;
  slug: string;
  sort_order: Generated<number>;
  /** 1: written by the demo catalogue and removed with it. */
  is_demo: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface CategoriesTable {
  id: Generated<number>;
  slug: string;
  name_en: string;
  name_zh: string;
  description_en: string | null;
  description_zh: string | null;
  image_path: string | null;
  is_active: ColumnType<Bool, Bool | undefined, Bool>;
  sort_order: ColumnType<number, number | undefined, number>;
  /** Seeded demo content: "Remove demo data" deletes it. */
  is_demo: ColumnType<Bool, Bool | undefined, Bool>;
  /** 1: everything in it is 18+ (migration 0020). */
  adult_only: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** 1 when the operator left that currency's price empty: it follows the HKD price at the shop's exchange rate. */
type DerivedFlag = ColumnType<Bool, Bool | undefined, Bool>;

export interface ProductsTable {
  id: Generated<number>;
  category_id: number | null;
  /** The product's brand (migration 0025); null: none. */
  brand_id: number | null;
  name_en: string;
  name_zh: string;
  description_en: string;
  description_zh: string;
  price_hkd_cents: number;
  price_gbp_cents: number;
  price_eur_cents: number;
  price_usd_cents: number;
  price_gbp_derived: DerivedFlag;
  price_eur_derived: DerivedFlag;
  price_usd_derived: DerivedFlag;
  /** The sale (migration 0024, docs/decisions/053): the price paid while it lasts; null: no sale. */
  sale_price_hkd_cents: ColumnType<number | null, number | null | undefined, number | null>;
  sale_price_gbp_cents: ColumnType<number | null, number | null | undefined, number | null>;
  sale_price_eur_cents: ColumnType<number | null, number | null | undefined, number | null>;
  sale_price_usd_cents: ColumnType<number | null, number | null | undefined, number | null>;
  sale_price_gbp_derived: DerivedFlag;
  sale_price_eur_derived: DerivedFlag;
  sale_price_usd_derived: DerivedFlag;
  /** When the sale ends (UTC); null: until the owner removes it. Compared with now by every query. */
  sale_ends_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The second option's name ("Size"; null: the product varies by colour only; migration 0026). */
  option_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its Chinese name ("尺寸"); null shows the English one. */
  option_name_zh: ColumnType<string | null, string | null | undefined, string | null>;
  is_featured: ColumnType<Bool, Bool | undefined, Bool>;
  /** 1: 18+ (migration 0020); also 18+ when its category is. */
  adult_only: ColumnType<Bool, Bool | undefined, Bool>;
  is_demo: ColumnType<Bool, Bool | undefined, Bool>;
  /** Weight in grams for shipping bands (0: not weighed; migration 0018). */
  weight_grams: ColumnType<number, number | undefined, number>;
  /** Barcode number (GTIN-8/12/13/14, check digit verified) and manufacturer part number (migration 0028); null: none. */
  gtin: ColumnType<string | null, string | null | undefined, string | null>;
  mpn: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProductVariantsTable {
  id: Generated<number>;
  product_id: number;
  color: string; // 'Default' when the product has no colours; the key cart lines refer to
  /** The colour's Chinese name; null shows the English one. */
  color_zh: ColumnType<string | null, string | null | undefined, string | null>;
  stock: number; // CHECK (stock >= 0)
  /** The colour's place among the product's colours. */
  sort_order: ColumnType<number, number | undefined, number>;
  /** The second option's value in English ('' when the product has no second option; migration 0026). */
  option_value: ColumnType<string, string | undefined, string>;
  /** The value's Chinese text; null shows the English one. */
  option_value_zh: ColumnType<string | null, string | null | undefined, string | null>;
  /** The value's place on its axis. */
  option_order: ColumnType<number, number | undefined, number>;
  /** Unique across the shop; a row written without one gets "P{product}-{id}" from a trigger. */
  sku: ColumnType<string, string | null | undefined, string | null>;
}

export interface ProductImagesTable {
  id: Generated<number>;
  product_id: number;
  path: string; // storage key in the public area
  sort_order: number; // 0..4: at most five images a product
  /** The colour (product_variants.color) this image shows, or null for every colour. */
  color: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CartsTable {
  id: string;
  user_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** The discount code the shopper applied (normalised), checked again whenever the cart is priced. */
  discount_code: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CartLinesTable {
  id: Generated<number>;
  cart_id: string;
  product_id: number;
  color: string;
  /** The second option's value (product_variants.option_value; '' when none). */
  option_value: ColumnType<string, string | undefined, string>;
  quantity: number;
  created_at: CreatedAt;
}

export interface OrdersTable {
  id: string;
  order_number: string;
  user_id: string | null;
  status: OrderStatus;
  currency: Currency;
  locale: Locale;
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  address: string;
  city: string;
  postal_code: string | null;
  country: string;
  notes: string | null;
  receipt_path: string | null; // storage key in the private area
  receipt_uploaded_at: Timestamp | null;
  receipt_rejected_reason: string | null;
  tracking_number: string | null;
  /** One-time key of the payment form: a resubmission finds this order instead of making another. */
  submission_key: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  paid_at: Timestamp | null;
  shipped_at: Timestamp | null;
  delivered_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  /** Unpaid and without a receipt waiting for review by then: cancelled (null on orders placed before deadlines). */
  payment_due_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the one payment reminder falls due (halfway through the window). */
  payment_reminder_due_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When and from which client address the shopper confirmed being 18+ (migration 0020); null without 18+ items. */
  age_confirmed_at: ColumnType<string | null, string | null | undefined, string | null>;
  age_confirmed_ip: ColumnType<string | null, string | null | undefined, string | null>;
  payment_reminded_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The shop cancelled the order because its deadline passed unpaid. */
  payment_expired_at: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The discount code the order used (a snapshot), and what it took off (migration 0019). With a
   * code, subtotal_cents is the lines' sum less discount_cents (total = subtotal + shipping stays
   * true, as 0001's check wants): the lines' own sum is subtotal_cents + discount_cents.
   */
  discount_code: ColumnType<string | null, string | null | undefined, string | null>;
  discount_cents: ColumnType<number, number | undefined, number>;
  /** ISO 3166-1 alpha-2 code of the destination (null on orders placed before zones: `country` is what was typed). */
  country_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** The shipping zone the order was charged for, and its English name then (the zone may change or go). */
  shipping_zone_id: ColumnType<number | null, number | null | undefined, number | null>;
  shipping_zone_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** What refunds gave back so far, in the order's currency (migration 0029): the refunds' compare-and-set key. */
  refunded_cents: ColumnType<number, number | undefined, number>;
  /** Who carries the parcel, typed beside the tracking number when shipped (migration 0031); null before. */
  carrier: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One refund of an order (migration 0029, docs/decisions/057). */
export interface OrderRefundsTable {
  id: Generated<number>;
  order_id: string;
  amount_cents: number;
  currency: Currency;
  /** Why, as the shopper is told it. */
  reason: string;
  actor_user_id: string | null;
  created_at: Timestamp;
}

/** The units of one order line a refund put back in stock. */
export interface OrderRefundLinesTable {
  refund_id: number;
  order_line_id: number;
  quantity: number;
}

/** A shipping zone (migration 0018, decision 047). */
export interface ShippingZonesTable {
  id: Generated<number>;
  name_en: string;
  name_zh: string;
  sort_order: ColumnType<number, number | undefined, number>;
  /** 1: covers every country no other zone names (at most one such zone). */
  rest_of_world: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A country (ISO 3166-1 alpha-2) a zone covers; a country is in one zone at most. */
export interface ShippingZoneCountriesTable {
  country_code: string;
  zone_id: number;
}

/** A zone's flat fee and free-above threshold in one currency. */
export interface ShippingZoneRatesTable {
  zone_id: number;
  currency: Currency;
  fee_cents: number;
  free_above_cents: number | null;
}

/** A zone's weight band in one currency: up to max_grams the fee is fee_cents. */
export interface ShippingZoneBandsTable {
  zone_id: number;
  currency: Currency;
  max_grams: number;
  fee_cents: number;
}

export interface ScheduledJobsTable {
  name: string;
  /** A process runs the job only while it holds it: claimed by moving this past now. */
  locked_until: string;
  last_started_at: string | null;
  last_finished_at: string | null;
  /** What the last run did, as JSON. */
  last_result: string | null;
}

/** Where a message goes: an e-mail, or a POST to one of the owner's webhooks. */
export type OutboxChannel = "email" | "webhook";
/** pending → sending → sent; failed once its retry window passed (docs/decisions/044). */
export type OutboxStatus = "pending" | "sending" | "sent" | "failed";

/** One outgoing message, written in the transaction of the event that causes it (migration 0014). */
export interface OutboxMessagesTable {
  id: string;
  channel: OutboxChannel;
  /** What caused it: `order.placed`, `account.reset`, `alert.order.placed`… */
  event: string;
  /** Who it is for: `customer`, `staff`, `shop` (the notification addresses) or `webhook`. */
  audience: string;
  /** An e-mail address, or the webhook's URL at the time. */
  recipient: string;
  language: string;
  /** The e-mail's subject, or the webhook's event name. */
  subject: string;
  /** JSON: the rendered e-mail (`OutboxEmail`) or the webhook's body and signing details. */
  payload: string;
  /** Stable across retries: the Message-ID of an e-mail, the delivery id of a webhook. */
  message_key: string;
  order_id: string | null;
  webhook_id: string | null;
  status: OutboxStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  /** A failure after this marks the message failed instead of trying again. */
  give_up_at: string;
  /** A `sending` claim that outlives this (its process died) is taken again. */
  claimed_until: string | null;
  last_error: string | null;
  /** The HTTP status of the last webhook answer. */
  last_response_status: number | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  failed_at: string | null;
}

/**
 * A receiver of the shop's events (Settings → Webhooks, migration 0015, docs/decisions/046). Its
 * deliveries are outbox messages with its id as `webhook_id`.
 */
export interface WebhooksTable {
  id: string;
  /** The owner's name for it ("Bookkeeping"); may be empty. */
  name: ColumnType<string, string | undefined, string>;
  url: string;
  /** The HMAC-SHA256 key of its signatures: shown to the owner, never logged. */
  secret: string;
  /** JSON array of the event names it is sent (`ShopEventType`). */
  events: string;
  active: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: Timestamp;
  updated_at: Timestamp;
  secret_created_at: Timestamp;
}

/** One delivery attempt of an outbox message (the delivery log). */
export interface OutboxAttemptsTable {
  id: Generated<number>;
  message_id: string;
  attempted_at: string;
  ok: number;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface OrderLinesTable {
  id: Generated<number>;
  order_id: string;
  product_id: number | null;
  name_en: string;
  name_zh: string;
  color: string;
  color_zh: ColumnType<string | null, string | null | undefined, string | null>;
  /** The second option as it was when the order was placed (null: none; migration 0026). */
  option_name: ColumnType<string | null, string | null | undefined, string | null>;
  option_name_zh: ColumnType<string | null, string | null | undefined, string | null>;
  option_value: ColumnType<string | null, string | null | undefined, string | null>;
  option_value_zh: ColumnType<string | null, string | null | undefined, string | null>;
  /** The variant's SKU when the order was placed (null for orders placed before migration 0026). */
  sku: ColumnType<string | null, string | null | undefined, string | null>;
  image_path: string | null;
  unit_price_cents: number;
  quantity: number;
  line_total_cents: number;
}

export interface BlogPostsTable {
  id: Generated<number>;
  title_en: string;
  title_zh: string;
  content_en: string; // Markdown
  content_zh: string; // Markdown
  author: string;
  image_path: string | null;
  published: ColumnType<Bool, Bool | undefined, Bool>;
  published_at: Timestamp | null;
  is_demo: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface BankAccountsTable {
  id: Generated<number>;
  bank_name: string;
  account_holder: string;
  account_number: string;
  fps_id: string | null;
  swift_code: string | null;
  routing_number: string | null;
  bank_address: string | null;
  is_primary: ColumnType<Bool, Bool | undefined, Bool>;
  /** The demo account seeded with the demo catalogue: shoppers must not be told to pay into it. */
  is_demo: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** The zones a product may be sent to (migration 0020, docs/decisions/049); none: everywhere. */
export interface ProductShipZonesTable {
  product_id: number;
  zone_id: number;
}

/** The zones every product of a category may be sent to (migration 0020); none: everywhere. */
export interface CategoryShipZonesTable {
  category_id: number;
  zone_id: number;
}

export interface SiteSettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

export interface PageViewsTable {
  id: Generated<number>;
  path: string;
  session_id: string;
  user_id: string | null;
  user_agent: string | null;
  referrer: string | null;
  created_at: CreatedAt;
}

/**
 * Rollups of page_views, written in the same transaction as each view (see
 * docs/decisions/010-page-view-rollups.md). `day` is the Hong Kong date, YYYY-MM-DD.
 */
export interface PageViewDaysTable {
  day: string;
  views: number;
  /** Distinct sessions that day. */
  visitors: number;
  /** Sessions first seen that day: all-time unique visitors are their sum. */
  new_visitors: number;
}

export interface PageViewPathsTable {
  day: string;
  path: string;
  views: number;
}

/** One row per session per day it was seen: keeps `page_view_days.visitors` distinct. */
export interface PageViewDaySessionsTable {
  day: string;
  session_id: string;
}

/** One row per session ever seen: keeps `page_view_days.new_visitors` distinct. */
export interface PageViewSessionsTable {
  session_id: string;
  first_day: string;
}

export interface SignInEventsTable {
  id: Generated<number>;
  user_id: string | null;
  email: string;
  success: Bool;
  ip: string | null;
  country: string | null;
  city: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
}

/** invite: a new member of staff sets their first password (docs/decisions/042). */
export type AccountTokenPurpose = "reset" | "verify" | "invite";

/** Single-use account tokens (password reset, e-mail verification, staff invitation); only the hash is stored. */
export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  purpose: ColumnType<AccountTokenPurpose, AccountTokenPurpose | undefined, AccountTokenPurpose>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_user_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  details: string | null; // JSON
  created_at: CreatedAt;
}

/** FTS5 table (trigram tokenizer) mirrored from products by triggers; rowid is the product id. */
export interface ProductSearchTable {
  rowid: number;
  name_en: string;
  name_zh: string;
  category: string;
}

/** Fixed-window throttle counters shared by every app process (app/models/rate-limits.server.ts). */
export interface RateLimitHitsTable {
  /** "<limiter>:<address or account>". */
  key: string;
  count: number;
  /** The end of the current window. */
  reset_at: Timestamp;
}

/** One row (id 1): the catalogue's version, raised by triggers on every catalogue table (migration 0011). */
export interface PageCacheVersionTable {
  id: number;
  version: number;
}

/** One row: raised by SQLite triggers on every change a session read sees (migration 0032; not maintained on PostgreSQL). */
export interface VisitorVersionTable {
  id: number;
  version: number;
}

export type DiscountKind = "percent" | "fixed" | "free_shipping";
export type DiscountScope = "all" | "chosen";

/** A discount code (Admin → Discounts, migration 0019, docs/decisions/048). */
export interface DiscountCodesTable {
  id: Generated<number>;
  /** Normalised: trimmed, upper case; unique. */
  code: string;
  kind: DiscountKind;
  /** Percent codes: basis points (1250 = 12.5 %). */
  percent_bp: number | null;
  free_shipping: ColumnType<Bool, Bool | undefined, Bool>;
  /** Fixed codes: the amount per currency; null follows HKD at the shop's rate. */
  amount_hkd_cents: number | null;
  amount_gbp_cents: number | null;
  amount_eur_cents: number | null;
  amount_usd_cents: number | null;
  /** The minimum spend per currency; null follows HKD (all null: no minimum). */
  min_hkd_cents: number | null;
  min_gbp_cents: number | null;
  min_eur_cents: number | null;
  min_usd_cents: number | null;
  starts_at: Timestamp | null;
  ends_at: Timestamp | null;
  /** Null: unlimited. */
  max_uses: number | null;
  max_uses_per_customer: number | null;
  /** Uses not given back; raised in the order's transaction, never above max_uses. */
  uses_count: ColumnType<number, number | undefined, number>;
  applies_to: ColumnType<DiscountScope, DiscountScope | undefined, DiscountScope>;
  active: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DiscountCodeCategoriesTable {
  discount_id: number;
  category_id: number;
}

export interface DiscountCodeProductsTable {
  discount_id: number;
  product_id: number;
}

/** One order's use of a code; released_at once the order was cancelled or expired (the use given back). */
export interface DiscountUsesTable {
  id: Generated<number>;
  discount_id: number;
  order_id: string;
  user_id: string | null;
  email: string;
  currency: Currency;
  amount_cents: number;
  created_at: Timestamp;
  released_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** pending: not confirmed yet; active: waiting; sent: the back-in-stock e-mail is queued; cancelled (docs/decisions/055). */
export type StockAlertStatus = "pending" | "active" | "sent" | "cancelled";

/** A staff note on an order (docs/decisions/058): internal, never shown to the shopper. */
export interface OrderNotesTable {
  id: Generated<number>;
  order_id: string;
  /** Null once the author's account is deleted: the note stays. */
  author_user_id: string | null;
  body: string; // at most 2,000 characters
  created_at: Timestamp;
}

export interface StockAlertsTable {
  id: Generated<number>;
  variant_id: number;
  product_id: number;
  email: string; // stored lower-cased
  user_id: string | null;
  locale: Locale;
  status: StockAlertStatus;
  /** sha-256 of the confirmation link's token (never the token); null once confirmed. */
  confirm_token_hash: string | null;
  confirm_expires_at: Timestamp | null;
  /** When the last confirmation e-mail was queued: a repeated subscribe inside the throttle sends none. */
  confirm_sent_at: Timestamp | null;
  /** sha-256 of the "stop this alert" link's token. */
  cancel_token_hash: string;
  created_at: Timestamp;
  confirmed_at: Timestamp | null;
  sent_at: Timestamp | null;
  cancelled_at: Timestamp | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  admin_users: AdminUsersTable;
  categories: CategoriesTable;
  brands: BrandsTable;
  products: ProductsTable;
  product_variants: ProductVariantsTable;
  product_images: ProductImagesTable;
  carts: CartsTable;
  cart_lines: CartLinesTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  order_refunds: OrderRefundsTable;
  order_refund_lines: OrderRefundLinesTable;
  blog_posts: BlogPostsTable;
  bank_accounts: BankAccountsTable;
  site_settings: SiteSettingsTable;
  product_ship_zones: ProductShipZonesTable;
  category_ship_zones: CategoryShipZonesTable;
  page_views: PageViewsTable;
  page_view_days: PageViewDaysTable;
  page_view_paths: PageViewPathsTable;
  page_view_day_sessions: PageViewDaySessionsTable;
  page_view_sessions: PageViewSessionsTable;
  sign_in_events: SignInEventsTable;
  password_reset_tokens: PasswordResetTokensTable;
  audit_log: AuditLogTable;
  product_search: ProductSearchTable;
  rate_limit_hits: RateLimitHitsTable;
  page_cache_version: PageCacheVersionTable;
  visitor_version: VisitorVersionTable;
  scheduled_jobs: ScheduledJobsTable;
  outbox_messages: OutboxMessagesTable;
  outbox_attempts: OutboxAttemptsTable;
  webhooks: WebhooksTable;
  discount_codes: DiscountCodesTable;
  discount_code_categories: DiscountCodeCategoriesTable;
  discount_code_products: DiscountCodeProductsTable;
  discount_uses: DiscountUsesTable;
  shipping_zones: ShippingZonesTable;
  shipping_zone_countries: ShippingZoneCountriesTable;
  shipping_zone_rates: ShippingZoneRatesTable;
  shipping_zone_bands: ShippingZoneBandsTable;
  stock_alerts: StockAlertsTable;
  order_notes: OrderNotesTable;
}

export type UserRow = Selectable<UsersTable>;
export type CategoryRow = Selectable<CategoriesTable>;
export type BrandRow = Selectable<BrandsTable>;
export type NewCategory = Insertable<CategoriesTable>;
export type ProductRow = Selectable<ProductsTable>;
export type NewProduct = Insertable<ProductsTable>;
export type ProductUpdate = Updateable<ProductsTable>;
export type ProductVariantRow = Selectable<ProductVariantsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type OrderLineRow = Selectable<OrderLinesTable>;
export type OrderRefundRow = Selectable<OrderRefundsTable>;
export type OutboxMessageRow = Selectable<OutboxMessagesTable>;
export type OutboxAttemptRow = Selectable<OutboxAttemptsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type DiscountCodeRow = Selectable<DiscountCodesTable>;
export type BlogPostRow = Selectable<BlogPostsTable>;
export type BankAccountRow = Selectable<BankAccountsTable>;
