import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type PlaywrightWorkerArgs } from "@playwright/test";
import Database from "better-sqlite3";
import {
  apiAddToCart,
  apiCheckout,
  apiPaymentKey,
  apiSignUp,
  receiptJpeg,
  type UploadFile,
  uniqueEmail,
  uniquePassword,
} from "../e2e/fixtures";
import { type Books, openDatabase, type Shop, type ShopFiles } from "./shop";

/**
 * Many shoppers placing orders at once over plain HTTP, for the reliability suite's races and
 * crash tests. A shopper is a Playwright request context (its own cookie jar: its own session,
 * cart and checkout) signed up on one shop. Several shops on one set of files share their
 * sessions (they live in the database), so a shopper can be moved to another process, or to
 * the same files after a restart, with `moveShopper`.
 *
 * Every request comes from 127.0.0.1: the harness raises the shop's per-address limits
 * (RATE_LIMIT_ADDRESS_FACTOR), so no proxy per shopper is needed here.
 */

type Playwright = PlaywrightWorkerArgs["playwright"];

export interface Shopper {
  /** Bound to `shop.baseURL`; replaced by `moveShopper`. */
  request: APIRequestContext;
  email: string;
  password: string;
  /** The shop this shopper talks to. */
  shop: Shop;
}

/** Runs `task` over `items` with at most `limit` at a time (sign-ups hash passwords: keep it low). */
export async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Signs up `count` new shoppers, spread round-robin over `shops` (shopper i on shops[i % n]).
 * Dispose of them with `disposeShoppers`.
 */
export async function signUpShoppers(
  playwright: Playwright,
  shops: readonly Shop[],
  count: number,
  prefix = "racer",
): Promise<Shopper[]> {
  if (shops.length === 0) throw new Error("signUpShoppers needs at least one shop");
  const shoppers: Shopper[] = [];
  try {
    await inBatches(Array.from({ length: count }), 6, async (_, index) => {
      const shop = shops[index % shops.length] as Shop;
      const request = await playwright.request.newContext({ baseURL: shop.baseURL });
      const shopper: Shopper = { request, email: uniqueEmail(prefix), password: uniquePassword(), shop };
      shoppers.push(shopper);
      await apiSignUp(request, shopper.email, shopper.password);
    });
  } catch (error) {
    await disposeShoppers(shoppers);
    throw error;
  }
  return shoppers;
}

export async function disposeShoppers(shoppers: readonly Shopper[]): Promise<void> {
  await Promise.all(shoppers.map((shopper) => shopper.request.dispose().catch(() => undefined)));
}

/** Points a shopper at `shop` (another process, or a restarted one), keeping their session cookie. */
export async function moveShopper(playwright: Playwright, shopper: Shopper, shop: Shop): Promise<void> {
  const storageState = await shopper.request.storageState();
  const request = await playwright.request.newContext({ baseURL: shop.baseURL, storageState });
  await shopper.request.dispose();
  shopper.request = request;
  shopper.shop = shop;
}

/** A second client with the same session (same cart, same checkout) talking to `shop`. */
export async function sameSessionOn(playwright: Playwright, shopper: Shopper, shop: Shop): Promise<APIRequestContext> {
  return playwright.request.newContext({ baseURL: shop.baseURL, storageState: await shopper.request.storageState() });
}

/**
 * Empties the cart, puts `quantity` of one colour in it, posts the checkout form and opens the
 * payment page: the shopper is one click from paying. Returns the payment form's submission key.
 */
export async function readyToPay(shopper: Shopper, productId: number, color: string, quantity = 1): Promise<string> {
  const cleared = await shopper.request.post("/cart", { form: { intent: "clear" }, maxRedirects: 0 });
  if (cleared.status() !== 302) throw new Error(`clearing the cart answered ${cleared.status()}`);
  await apiAddToCart(shopper.request, productId, color, quantity);
  await apiCheckout(shopper.request, shopper.email);
  return apiPaymentKey(shopper.request);
}

/** Every shopper `readyToPay` at once, `concurrency` at a time; keys in the shoppers' order. */
export async function allReadyToPay(
  shoppers: readonly Shopper[],
  productId: number,
  color: string,
  quantity = 1,
  concurrency = 10,
): Promise<string[]> {
  return inBatches(shoppers, concurrency, (shopper) => readyToPay(shopper, productId, color, quantity));
}

/** What a payment form post came back with. */
export type PaymentOutcome =
  /** 302 to /payment-success?order=…: the shopper was told the order is placed. */
  | { kind: "confirmed"; status: number; orderNumber: string }
  /** 303 back to the cart, whose page then says a colour has only N left in stock (decision 075). */
  | { kind: "outOfStock"; status: number; text: string }
  /** Any other answer (a 5xx among them); `text` is the page's title or the body's start. */
  | { kind: "other"; status: number; text: string }
  /** No answer at all: the connection failed (the server was killed). */
  | { kind: "noAnswer"; error: string };

/** The out-of-stock refusal a refused payment leaves on the cart page (checkout.errors.outOfStock). */
export const OUT_OF_STOCK_TEXT = /has only \d+ left in stock\. Update your cart and try again\./;

/** Posts the payment form (multipart, as without JavaScript) and sorts out the answer. */
export async function pay(
  request: APIRequestContext,
  submissionKey: string,
  receipt: UploadFile,
  options: { timeout?: number } = {},
): Promise<PaymentOutcome> {
  let response: Awaited<ReturnType<APIRequestContext["post"]>>;
  try {
    response = await request.post("/payment", {
      multipart: { submissionKey, receipt },
      maxRedirects: 0,
      timeout: options.timeout ?? 60_000,
    });
  } catch (error) {
    return { kind: "noAnswer", error: error instanceof Error ? error.message : String(error) };
  }
  const status = response.status();
  const location = response.headers().location ?? "";
  const confirmed = /\/payment-success\?order=([^&]+)$/.exec(location);
  if (status === 302 && confirmed?.[1]) {
    return { kind: "confirmed", status, orderNumber: decodeURIComponent(confirmed[1]) };
  }
  if (status === 303 && /\/cart$/.test(location)) {
    // The refusal's reason is the flash message the cart page shows next (the same session).
    let cart: string;
    try {
      const page = await request.get("/cart", { timeout: options.timeout ?? 60_000 });
      // A proxy's 502/503: the process that refused went away (a crash test) before the cart page.
      if (page.status() >= 500) throw new Error(`the cart page answered ${page.status()}`);
      cart = await page.text();
    } catch (error) {
      // The refusal was answered; the shop went away (a crash test) before its cart page did.
      const reason = error instanceof Error ? error.message : String(error);
      return { kind: "outOfStock", status, text: `refused; the cart page did not answer: ${reason}` };
    }
    const said = OUT_OF_STOCK_TEXT.exec(cart);
    if (said) return { kind: "outOfStock", status, text: said[0] };
    return { kind: "other", status, text: /<title>([^<]*)<\/title>/.exec(cart)?.[1] ?? cart.slice(0, 200) };
  }
  const text = await response.text().catch(() => "");
  // A refusal a process answers itself with the payment page (a colour sold out while a payment on
  // another process took it after this one's check): still an out-of-stock refusal.
  if (status === 409 && OUT_OF_STOCK_TEXT.test(text)) return { kind: "outOfStock", status, text };
  const title = /<title>([^<]*)<\/title>/.exec(text)?.[1];
  return { kind: "other", status, text: title ?? text.slice(0, 200) };
}

/**
 * Every shopper posts their payment form at the same moment (all requests are sent before any
 * answer is awaited). `receipt` defaults to one small JPEG shared by all.
 */
export async function payAllAtOnce(
  payments: readonly { request: APIRequestContext; submissionKey: string }[],
  receipt?: UploadFile,
): Promise<PaymentOutcome[]> {
  const file = receipt ?? (await receiptJpeg());
  return Promise.all(payments.map(({ request, submissionKey }) => pay(request, submissionKey, file)));
}

/** Counts outcomes by kind, for assertions and messages. */
export function tally(outcomes: readonly PaymentOutcome[]): Record<PaymentOutcome["kind"], number> {
  const counts = { confirmed: 0, outOfStock: 0, other: 0, noAnswer: 0 };
  for (const outcome of outcomes) counts[outcome.kind]++;
  return counts;
}

/* ------------------------------------------------------------------------------------------
 * The database beside the running shop(s)
 * ------------------------------------------------------------------------------------------ */

/** A writable connection beside the running shop(s), for setting up scarce stock. */
export function withWritableDatabase<T>(files: ShopFiles, task: (db: Database.Database) => T): T {
  const db = new Database(files.databaseFile, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 10000");
    return task(db);
  } finally {
    db.close();
  }
}

export interface Variant {
  productId: number;
  color: string;
}

/** `count` distinct colour variants of the seeded catalogue (each test can own one). */
export function variants(files: ShopFiles, count: number): Variant[] {
  const db = openDatabase(files);
  try {
    const rows = db
      // Only colours a shopper can buy: products of an inactive category are hidden.
      .prepare(
        `SELECT v.product_id AS productId, v.color FROM product_variants v
         JOIN products p ON p.id = v.product_id LEFT JOIN categories c ON c.id = p.category_id
         WHERE c.id IS NULL OR c.is_active = 1
         ORDER BY v.product_id, v.sort_order LIMIT ?`,
      )
      .all(count) as Variant[];
    if (rows.length < count) throw new Error(`the catalogue has only ${rows.length} colour variants`);
    return rows;
  } finally {
    db.close();
  }
}

/** Sets one colour's stock straight in the database. */
export function setStock(files: ShopFiles, variant: Variant, stock: number): void {
  withWritableDatabase(files, (db) => {
    const changed = db
      .prepare("UPDATE product_variants SET stock = ? WHERE product_id = ? AND color = ?")
      .run(stock, variant.productId, variant.color).changes;
    if (changed !== 1) throw new Error(`no variant ${variant.productId}/${variant.color}`);
  });
}

/** One colour's stock now. */
export function stockOf(files: ShopFiles, variant: Variant): number {
  const db = openDatabase(files);
  try {
    const row = db
      .prepare("SELECT stock FROM product_variants WHERE product_id = ? AND color = ?")
      .get(variant.productId, variant.color) as { stock: number } | undefined;
    if (!row) throw new Error(`no variant ${variant.productId}/${variant.color}`);
    return row.stock;
  } finally {
    db.close();
  }
}

/** Units of one colour held by orders that are not cancelled (what the stock has given away). */
export function unitsSold(files: ShopFiles, variant: Variant): number {
  const db = openDatabase(files);
  try {
    const row = db
      .prepare(
        `SELECT COALESCE(SUM(order_lines.quantity), 0) AS units FROM order_lines
         JOIN orders ON orders.id = order_lines.order_id
         WHERE order_lines.product_id = ? AND order_lines.color = ? AND orders.status <> 'cancelled'`,
      )
      .get(variant.productId, variant.color) as { units: number };
    return row.units;
  } finally {
    db.close();
  }
}

export interface StoredOrder {
  id: string;
  order_number: string;
  status: string;
  user_id: string;
  receipt_path: string | null;
  submission_key: string | null;
  lines: { product_id: number | null; color: string; quantity: number }[];
}

/** Orders with their lines, optionally only those with the given numbers. */
export function storedOrders(files: ShopFiles, numbers?: readonly string[]): StoredOrder[] {
  const db = openDatabase(files);
  try {
    const orders = db
      .prepare("SELECT id, order_number, status, user_id, receipt_path, submission_key FROM orders ORDER BY created_at")
      .all() as Omit<StoredOrder, "lines">[];
    const lines = db.prepare("SELECT product_id, color, quantity FROM order_lines WHERE order_id = ? ORDER BY id");
    const wanted = numbers ? new Set(numbers) : null;
    return orders
      .filter((order) => !wanted || wanted.has(order.order_number))
      .map((order) => ({ ...order, lines: lines.all(order.id) as StoredOrder["lines"] }));
  } finally {
    db.close();
  }
}

/** Where the shop keeps a private file (a payment receipt) on disk: uploads/private/<key>. */
export function privateFile(files: ShopFiles, key: string): string {
  return path.join(files.uploadsDir, "private", key);
}

/**
 * Receipts on disk against orders in the database: orders whose receipt file is missing (never
 * acceptable), and files no order points at (left by a crash between writing the file and
 * committing the order, or half-written temporary files: harmless, reported).
 */
export function receiptAudit(files: ShopFiles): { missing: StoredOrder[]; orphans: string[]; temporary: string[] } {
  const orders = storedOrders(files);
  const referenced = new Set(orders.flatMap((order) => (order.receipt_path ? [order.receipt_path] : [])));
  const missing = orders.filter(
    (order) => order.receipt_path && !fs.existsSync(privateFile(files, order.receipt_path)),
  );
  const root = path.join(files.uploadsDir, "private");
  const onDisk = fs.existsSync(root)
    ? (fs.readdirSync(root, { recursive: true, encoding: "utf8" }) as string[])
        .map((name) => name.split(path.sep).join("/"))
        .filter((name) => fs.statSync(path.join(root, name)).isFile())
    : [];
  return {
    missing,
    orphans: onDisk.filter((name) => !name.endsWith(".tmp") && !referenced.has(name)),
    temporary: onDisk.filter((name) => name.endsWith(".tmp")),
  };
}

/** `PRAGMA integrity_check` of the shop's database: "ok" when sound. */
export function integrityCheck(files: ShopFiles): string {
  const db = openDatabase(files);
  try {
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join("\n");
  } finally {
    db.close();
  }
}

/** Lines of a shop's stderr that show the database refusing a writer (lock contention). */
export function busyErrors(shop: Shop): string[] {
  return shop
    .stderr()
    .split("\n")
    .filter((line) => /SQLITE_BUSY|database is locked/i.test(line));
}

/** The SQLite file's books (the functions above), as the async Books the shared bodies use. */
export function sqliteBooks(files: ShopFiles): Books {
  return {
    variants: async (count) => variants(files, count),
    setStock: async (variant, stock) => setStock(files, variant, stock),
    stockOf: async (variant) => stockOf(files, variant),
    unitsSold: async (variant) => unitsSold(files, variant),
    storedOrders: async (numbers) => storedOrders(files, numbers),
    close: async () => undefined,
  };
}

/**
 * The books after a burst of payments (one per submission key) with a crash in it: every order
 * a shopper saw confirmed is stored with its one line and a receipt, stock never went below zero,
 * stock + sold is the stock before the burst, and the burst made as many orders as units sold.
 * Returns the burst's stored orders, for the caller's receipt checks.
 */
export async function expectBurstAccounted(
  books: Books,
  burst: { outcomes: PaymentOutcome[]; keys: string[]; variant: Variant; stockBefore: number; soldBefore: number },
): Promise<StoredOrder[]> {
  const { outcomes, keys, variant } = burst;
  const confirmed = outcomes.flatMap((outcome) => (outcome.kind === "confirmed" ? [outcome.orderNumber] : []));
  const orders = await books.storedOrders(confirmed);
  expect(orders.map((order) => order.order_number).toSorted(), "every confirmed order survived").toEqual(
    confirmed.toSorted(),
  );
  for (const order of orders) {
    expect(order.lines, `items of ${order.order_number}`).toEqual([
      { product_id: variant.productId, color: variant.color, quantity: 1 },
    ]);
    expect(order.receipt_path, `receipt of ${order.order_number}`).toBeTruthy();
  }
  const stock = await books.stockOf(variant);
  const sold = (await books.unitsSold(variant)) - burst.soldBefore;
  expect(stock, "stock never negative").toBeGreaterThanOrEqual(0);
  expect(stock + sold, `stock ${stock} + sold ${sold} is the stock before the burst`).toBe(burst.stockBefore);
  const placed = (await books.storedOrders()).filter((order) => keys.includes(order.submission_key ?? ""));
  expect(placed.length, "orders in the database for this burst").toBe(sold);
  expect(placed.length).toBeGreaterThanOrEqual(confirmed.length);
  return placed;
}
