import crypto from "node:crypto";
import { type Insertable, sql } from "kysely";
import { type DB, now } from "#db/connect.server";
import type { CategoryRow, Currency, Database, OrderRow, UserRow } from "#db/schema";
import { MemoryStorage, type Storage } from "~/lib/storage.server";
import type { Language } from "~/locales";
import { addToCart, cartIdForUser } from "~/models/cart.server";
import { createCategory as createCategoryModel } from "~/models/categories.server";
import { createDiscount } from "~/models/discounts/admin.server";
import { placeOrder } from "~/models/orders/place.server";
import { createProduct as createProductModel, type ProductInput } from "~/models/products/editor.server";
import { createUser } from "~/models/user.server";
import type { CurrentUser } from "~/request/auth.server";
import type { CategoryInput } from "~/schemas/category";
import type { CheckoutInput } from "~/schemas/checkout";
import type { DiscountInput } from "~/schemas/discount";

/**
 * Test data through the real model functions (createProduct, createCategory, createUser,
 * placeOrder), each value unique by `crypto.randomUUID()`: no shared counters, no hand inserts.
 */

/** A short unique tag for names and e-mails. */
export function uniqueTag(): string {
  return crypto.randomUUID().slice(0, 8);
}

/** A colour: `[colour, stock]`, `[colour, Chinese name, stock]` or the model's own shape. */
export type VariantSpec =
  | [color: string, stock: number]
  | [color: string, color_zh: string | null, stock: number]
  | { color: string; color_zh?: string | null; stock: number };

export type ProductOverrides = Partial<Omit<ProductInput, "variants">> & { variants?: VariantSpec[] };

export interface TestProduct {
  id: number;
  name_en: string;
  name_zh: string;
  /** Storage keys of its images, in display order. */
  imageKeys: string[];
}

export interface ProductExtras {
  /** Where image files go (a throwaway memory storage unless given). */
  storage?: Storage;
  /** Image files, stored through the real image pipeline. */
  images?: (File | Blob)[];
  /** A creation time other than now (e.g. to order a listing); the model always stamps now. */
  createdAt?: string;
}

function variantOf(spec: VariantSpec) {
  if (!Array.isArray(spec)) return { color: spec.color, color_zh: spec.color_zh ?? null, stock: spec.stock };
  if (spec.length === 2) return { color: spec[0], color_zh: null, stock: spec[1] };
  return { color: spec[0], color_zh: spec[1], stock: spec[2] };
}

/**
 * A product through the admin editor's model (prices in cents, fixed in every currency unless
 * given as null; no category unless `category_id`; one Black colour of 10 unless `variants`;
 * `variants: []` leaves it with no colour row at all).
 */
export async function createProduct(
  db: DB,
  overrides: ProductOverrides = {},
  extras: ProductExtras = {},
): Promise<TestProduct> {
  const tag = uniqueTag();
  const { variants, ...fields } = overrides;
  const input: ProductInput = {
    name_en: `Test product ${tag}`,
    name_zh: `測試產品 ${tag}`,
    description_en: "A test product.",
    description_zh: "測試用產品。",
    price_hkd_cents: 50_00,
    price_gbp_cents: 5_99,
    price_eur_cents: 6_99,
    price_usd_cents: 7_99,
    category_id: null,
    is_featured: false,
    stock: 10,
    ...fields,
    variants: (variants ?? [["Black", 10]]).map(variantOf),
  };
  const id = await createProductModel(db, extras.storage ?? new MemoryStorage(), input, extras.images ?? [], null);
  if (variants?.length === 0) {
    // No colours at all: a state the editor never makes (it adds a default colour), as older data may be.
    await db.deleteFrom("product_variants").where("product_id", "=", id).execute();
  }
  if (extras.createdAt) {
    // created_at is never updated by the app (its type forbids it): only a test backdates a row.
    await sql`update products set created_at = ${extras.createdAt}, updated_at = ${extras.createdAt} where id = ${id}`.execute(
      db,
    );
  }
  const images = await db
    .selectFrom("product_images")
    .select("path")
    .where("product_id", "=", id)
    .orderBy("sort_order")
    .execute();
  return { id, name_en: input.name_en, name_zh: input.name_zh, imageKeys: images.map((image) => image.path) };
}

/** A category through the categories model (active, unique slug and names unless overridden). */
export async function createCategory(db: DB, overrides: Partial<CategoryInput> = {}): Promise<CategoryRow> {
  const tag = uniqueTag();
  const input: CategoryInput = {
    name_en: `Category ${tag}`,
    name_zh: `類別 ${tag}`,
    description_en: "",
    description_zh: "",
    sort_order: 0,
    is_active: true,
    slug: `category-${tag}`,
    remove_image: false,
    image: undefined,
    ...overrides,
  } as CategoryInput;
  return createCategoryModel(db, new MemoryStorage(), input, { actorUserId: null });
}

export const TEST_PASSWORD = "secret-password-12";

/** A customer account through the real `createUser` (unique e-mail); `password` is its password. */
export async function createCustomer(
  db: DB,
  overrides: { email?: string; password?: string } = {},
): Promise<UserRow & { password: string }> {
  const password = overrides.password ?? TEST_PASSWORD;
  const user = await createUser(db, {
    email: overrides.email ?? `customer-${crypto.randomUUID()}@example.com`,
    password,
  });
  return { ...user, password };
}

/**
 * A user as the route helpers take them (`runRoute(svc, fn, request, user)`): an account made
 * through the real `createUser`, signed in as an admin or as a customer.
 */
export async function createSignedIn(db: DB, options: { email?: string; admin?: boolean } = {}): Promise<CurrentUser> {
  const user = await createCustomer(db, { email: options.email });
  return { id: user.id, email: user.email, isAdmin: options.admin ?? false, role: options.admin ? "owner" : null };
}

/** A customer and their (empty) cart. */
export async function createShopper(db: DB): Promise<{ user: UserRow; userId: string; cartId: string }> {
  const user = await createCustomer(db);
  return { user, userId: user.id, cartId: await cartIdForUser(db, user.id) };
}

/**
 * The configuration order models take in tests (their e-mails' and alerts' links): the public
 * URL of the test services' config (tests/setup/db.ts), no demo account.
 */
export const TEST_CONFIG = { publicUrl: "http://localhost:3000", demoMode: false } as const;

export interface TestOrderOptions {
  /** The buyer; a new customer when missing. */
  user?: UserRow;
  /** What goes into the cart; one of a new product (Black, stock 9) when missing. */
  lines?: { productId: number; color: string; quantity: number }[];
  currency?: Currency;
  locale?: Language;
  customer?: Partial<CheckoutInput>;
  /** The receipt's storage key; null places the order to pay later (no receipt). */
  receiptPath?: string | null;
  submissionKey?: string;
  /** PAYMENT_WINDOW_HOURS for this order (48 when missing). */
  paymentWindowHours?: number;
}

/** An order placed through the real `placeOrder`: the lines go into the buyer's cart first. */
export async function placeTestOrder(
  db: DB,
  options: TestOrderOptions = {},
): Promise<{ order: OrderRow; user: UserRow; lines: { productId: number; color: string; quantity: number }[] }> {
  const user = options.user ?? (await createCustomer(db));
  const lines = options.lines ?? [
    { productId: (await createProduct(db, { variants: [["Black", 9]] })).id, color: "Black", quantity: 1 },
  ];
  const cartId = await cartIdForUser(db, user.id);
  for (const line of lines) await addToCart(db, cartId, line);
  const { order } = await placeOrder(db, TEST_CONFIG, {
    userId: user.id,
    cartId,
    currency: options.currency ?? "HKD",
    locale: options.locale ?? "en",
    customer: {
      firstName: "Chan",
      lastName: "Tai Man",
      email: user.email,
      address: "1 Nathan Road",
      city: "Kowloon",
      country: "Hong Kong",
      ...options.customer,
    } as CheckoutInput,
    receiptPath: options.receiptPath === undefined ? `receipts/${crypto.randomUUID()}.webp` : options.receiptPath,
    submissionKey: options.submissionKey ?? crypto.randomUUID(),
    defaultPaymentWindowHours: options.paymentWindowHours,
  });
  return { order, user, lines };
}

/**
 * An order of one Black item (HKD 80.00) paid by a receipt upload, waiting for the desk: the
 * buyer signed in as a customer, the receipt under their folder.
 */
export async function placeOrderWithReceipt(db: DB): Promise<{ order: OrderRow; customer: CurrentUser }> {
  const product = await createProduct(db, {
    price_hkd_cents: 80_00,
    price_gbp_cents: 8_00,
    price_eur_cents: 9_00,
    price_usd_cents: 10_00,
    variants: [["Black", 9]],
  });
  const user = await createCustomer(db);
  const { order } = await placeTestOrder(db, {
    user,
    lines: [{ productId: product.id, color: "Black", quantity: 1 }],
    customer: { city: "Tsim Sha Tsui" },
    receiptPath: `receipts/${user.id}/first.jpg`,
  });
  return { order, customer: { id: user.id, email: user.email, isAdmin: false, role: null } };
}

/** The stock of one colour of a product, as the database has it now. */
export async function variantStock(db: DB, productId: number, color = "Black"): Promise<number> {
  const row = await db
    .selectFrom("product_variants")
    .select("stock")
    .where("product_id", "=", productId)
    .where("color", "=", color)
    .executeTakeFirstOrThrow();
  return row.stock;
}

/** The shop's only bank account, primary and live (not the demo): HSBC, FPS id 1648203 unless overridden. */
export async function addPrimaryBankAccount(
  db: DB,
  fields: Partial<Insertable<Database["bank_accounts"]>> = {},
): Promise<void> {
  const at = now();
  await db.deleteFrom("bank_accounts").execute();
  await db
    .insertInto("bank_accounts")
    .values({
      bank_name: "HSBC Hong Kong",
      account_holder: "Harbour Tactical Limited",
      account_number: "848-302915-838",
      fps_id: "1648203",
      swift_code: "HSBCHKHHHKH",
      bank_address: null,
      routing_number: null,
      is_demo: 0,
      ...fields,
      is_primary: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/**
 * A discount code through the real `createDiscount` (Admin → Discounts): 10 % off everything,
 * active, unlimited, with a unique code, unless overridden.
 */
export async function createDiscountCode(
  db: DB,
  overrides: Partial<DiscountInput> = {},
): Promise<{ id: number; code: string }> {
  const code =
    overrides.code ??
    `TEST${uniqueTag()
      .replace(/[^A-Za-z0-9]/g, "")
      .toUpperCase()}`.slice(0, 32);
  const input: DiscountInput = {
    code,
    kind: "percent",
    percent: "",
    percent_bp: 1000,
    amount_hkd: null,
    amount_gbp: null,
    amount_eur: null,
    amount_usd: null,
    free_shipping: false,
    min_hkd: null,
    min_gbp: null,
    min_eur: null,
    min_usd: null,
    starts_at: null,
    ends_at: null,
    max_uses: null,
    max_uses_per_customer: null,
    applies_to: "all",
    categories: [],
    products: [],
    active: true,
    ...overrides,
  };
  const id = await createDiscount(db, { id: (await createCustomer(db)).id }, input);
  return { id, code: input.code };
}
