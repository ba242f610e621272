#!/usr/bin/env node
// npm run soak: 50 virtual shoppers (SOAK_SHOPPERS) browse and buy for 10 minutes (SOAK_MINUTES)
// on a shop started from the existing production build (BUILD_DIR, default build; this script
// builds nothing) with its own temporary database and uploads. Every 30 s (SOAK_SAMPLE_SECONDS)
// it prints the server's RSS, the WAL file's size and the request latencies. It stops every
// process it started and exits non-zero on a 5xx, an oversold or inconsistent stock, or memory or
// WAL growth that does not level off.
//
// The shopper driver below is also what tests/reliability/load.spec.ts runs for a minute.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import SQLite from "better-sqlite3";

const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-language": "en-GB,en;q=0.9",
};

const CHECKOUT = {
  firstName: "Chan",
  lastName: "Tai Man",
  phone: "+852 9123 4567",
  address: "Flat A, 12/F, 1 Nathan Road",
  city: "Tsim Sha Tsui",
  country: "Hong Kong",
};

const SEARCH_TERMS = ["rifle", "pistol", "vest", "glove", "m4", "gas", "scope", "helmet", "sniper", "mask"];

/* ------------------------------------------------------------------------------------------
 * Measurements
 * ------------------------------------------------------------------------------------------ */

/** Resident memory of a process in bytes, from /proc/<pid>/status (VmRSS), or null. */
export function rssOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** Size of the database's -wal file in bytes (0 when there is none). */
export function walSize(databaseFile) {
  try {
    return fs.statSync(`${databaseFile}-wal`).size;
  } catch {
    return 0;
  }
}

export function mb(bytes) {
  return bytes === null || bytes === undefined ? "?" : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

/* ------------------------------------------------------------------------------------------
 * The catalogue and its stock, read from the database (read-only, beside the running shop)
 * ------------------------------------------------------------------------------------------ */

function openReadOnly(databaseFile) {
  const db = new SQLite(databaseFile, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  return db;
}

/** Categories, products and the stock of every colour variant, keyed "productId|colour". */
export function readCatalogue(databaseFile) {
  const db = openReadOnly(databaseFile);
  try {
    const categories = db.prepare("SELECT slug FROM categories WHERE is_active = 1").pluck().all();
    // Only what a shopper can see and buy: products of an inactive category are hidden (404).
    const variants = db
      .prepare(
        `SELECT v.product_id AS productId, v.color, v.stock FROM product_variants v
         JOIN products p ON p.id = v.product_id LEFT JOIN categories c ON c.id = p.category_id
         WHERE c.id IS NULL OR c.is_active = 1
         ORDER BY v.product_id, v.sort_order`,
      )
      .all();
    const stock = Object.fromEntries(variants.map((v) => [`${v.productId}|${v.color}`, v.stock]));
    return { categories, variants, stock };
  } finally {
    db.close();
  }
}

/**
 * Stock against orders: no colour below zero, and for every colour the stock that left it is
 * exactly what the orders (not cancelled) hold. `initial` is readCatalogue().stock before the load.
 */
export function checkStock(databaseFile, initial) {
  const db = openReadOnly(databaseFile);
  try {
    const now = Object.fromEntries(
      db
        .prepare("SELECT product_id AS productId, color, stock FROM product_variants")
        .all()
        .map((v) => [`${v.productId}|${v.color}`, v.stock]),
    );
    const sold = Object.fromEntries(
      db
        .prepare(
          "SELECT l.product_id AS productId, l.color AS color, sum(l.quantity) AS quantity FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status <> 'cancelled' GROUP BY l.product_id, l.color",
        )
        .all()
        .map((row) => [`${row.productId}|${row.color}`, row.quantity]),
    );
    const orders = db.prepare("SELECT count(*) FROM orders").pluck().get();
    const lines = db.prepare("SELECT coalesce(sum(quantity), 0) FROM order_lines").pluck().get();
    const negative = Object.entries(now).filter(([, stock]) => stock < 0);
    const mismatched = [];
    for (const [key, before] of Object.entries(initial)) {
      const moved = before - (now[key] ?? 0);
      const inOrders = sold[key] ?? 0;
      if (moved !== inOrders) mismatched.push(`${key}: ${moved} left the stock, orders hold ${inOrders}`);
    }
    for (const key of Object.keys(sold)) {
      if (!(key in initial)) mismatched.push(`${key}: sold, but not in the catalogue the load started with`);
    }
    const soldOut = Object.values(now).filter((stock) => stock === 0).length;
    return { orders, items: lines, negative, mismatched, soldOut };
  } finally {
    db.close();
  }
}

/* ------------------------------------------------------------------------------------------
 * A shopper: plain HTTP with its own cookies, like a browser without JavaScript
 * ------------------------------------------------------------------------------------------ */

class Shopper {
  constructor(baseURL, stats, index) {
    this.baseURL = baseURL;
    this.stats = stats;
    this.cookies = new Map();
    this.email = `soak-${index}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    this.password = `pw-${Math.random().toString(36).slice(2, 12)}-secret`;
  }

  async request(method, url, body) {
    const headers = { ...BROWSER_HEADERS };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body) {
      payload = new URLSearchParams(body).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const started = performance.now();
    let response;
    let text;
    try {
      response = await fetch(this.baseURL + url, {
        method,
        headers,
        body: payload,
        redirect: "manual",
        signal: AbortSignal.timeout(60_000),
      });
      text = await response.text();
    } catch (error) {
      this.stats.failures.push(`${method} ${url}: ${error instanceof Error ? error.message : error}`);
      throw error;
    }
    const ms = performance.now() - started;
    this.stats.record(method, url, response.status, ms);
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, location: response.headers.get("location") ?? "", text };
  }
}

function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

/**
 * One shopper's visit, repeated until `deadline`: home, a category, a product, a search, then
 * add to cart, check out and pay with a receipt. Sold-out refusals are answers, not errors.
 */
async function shop(shopper, catalogue, receipt, deadline, stats, maxVisits, signal) {
  const signUp = await shopper.request("POST", "/login", {
    intent: "signup",
    email: shopper.email,
    password: shopper.password,
    redirectTo: "/",
  });
  if (signUp.status !== 302) {
    stats.failures.push(`sign-up of ${shopper.email} answered ${signUp.status}`);
    return;
  }
  // Most shoppers want the same few products: that is where overselling would happen.
  const popular = catalogue.variants.slice(0, 6);
  for (let visit = 0; visit < maxVisits && Date.now() < deadline && !signal?.aborted; visit++) {
    const variant = Math.random() < 0.6 ? pick(popular) : pick(catalogue.variants);
    await shopper.request("GET", "/");
    await shopper.request("GET", `/category/${encodeURIComponent(pick(catalogue.categories))}`);
    await shopper.request("GET", `/product/${variant.productId}`);
    await shopper.request("GET", `/search?q=${pick(SEARCH_TERMS)}`);
    if (Date.now() >= deadline) break;
    const added = await shopper.request("POST", "/cart", {
      intent: "add",
      productId: String(variant.productId),
      color: variant.color,
      quantity: String(1 + Math.floor(Math.random() * 2)),
      redirectTo: "/cart",
    });
    if (added.status !== 302) {
      stats.refused++;
      continue;
    }
    await shopper.request("GET", "/cart");
    const checkout = await shopper.request("POST", "/checkout", { ...CHECKOUT, email: shopper.email });
    if (checkout.status !== 302 || !checkout.location.endsWith("/payment")) {
      stats.failures.push(`checkout answered ${checkout.status} ${checkout.location}`);
      continue;
    }
    const page = await shopper.request("GET", "/payment");
    const submissionKey = /name="submissionKey" value="([^"]+)"/.exec(page.text)?.[1];
    if (!submissionKey) {
      stats.failures.push(`the payment page (${page.status}) has no submission key`);
      continue;
    }
    const form = new FormData();
    form.set("submissionKey", submissionKey);
    form.set("receipt", new Blob([receipt], { type: "image/jpeg" }), "receipt.jpg");
    const paid = await shopper.request("POST", "/payment", form);
    const orderNumber = /order=(ORD-[0-9A-Z-]+)/.exec(paid.location)?.[1];
    if (paid.status === 302 && orderNumber) {
      const order = { email: shopper.email, password: shopper.password, orderNumber, confirmedAt: Date.now() };
      stats.orders.push(order);
      stats.onOrder(order);
    } else if (paid.status === 409) {
      // Sold out meanwhile: the cart keeps the line, so empty it like a shopper would.
      stats.refused++;
      await shopper.request("POST", "/cart", { intent: "clear" });
    } else {
      stats.failures.push(`payment answered ${paid.status} ${paid.location}`);
    }
  }
}

/** A small, real JPEG made with sharp, like a phone screenshot of a bank transfer. */
export async function receiptJpeg() {
  const { default: sharp } = await import("sharp");
  return sharp({ create: { width: 480, height: 320, channels: 3, background: { r: 24, g: 110, b: 190 } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

class Stats {
  constructor(onOrder) {
    this.onOrder = onOrder;
    this.requests = 0;
    this.statuses = {};
    this.serverErrors = [];
    this.failures = [];
    this.orders = [];
    this.refused = 0;
    this.notFound = [];
    this.window = [];
  }

  record(method, url, status, ms) {
    this.requests++;
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (status >= 500) this.serverErrors.push(`${method} ${url} answered ${status}`);
    else if (status === 404 && this.notFound.length < 20) this.notFound.push(`${method} ${url}`);
    this.window.push(ms);
  }

  /** Latencies since the last call, sorted. */
  takeWindow() {
    const window = this.window.sort((a, b) => a - b);
    this.window = [];
    return window;
  }
}

/**
 * Runs `shoppers` virtual shoppers against a running shop for `durationMs` (each also stops
 * after `maxVisits` visits), sampling the server's RSS and WAL every `sampleEveryMs`; `onOrder`
 * hears of every order confirmed to a shopper (e-mail, password, order number, time); `signal`
 * ends every shopper's visits early.
 *
 * @param {{
 *   baseURL: string; databaseFile: string; pid: number | undefined; shoppers: number; durationMs: number;
 *   sampleEveryMs?: number; maxVisits?: number; signal?: AbortSignal;
 *   onSample?: (sample: Sample) => void;
 *   onOrder?: (order: { email: string; password: string; orderNumber: string; confirmedAt: number }) => void;
 * }} options
 */
export async function runLoad({
  baseURL,
  databaseFile,
  pid,
  shoppers,
  durationMs,
  sampleEveryMs = 30_000,
  maxVisits = 10_000,
  onSample = () => {},
  onOrder = () => {},
  signal,
}) {
  const catalogue = readCatalogue(databaseFile);
  if (catalogue.variants.length === 0) throw new Error("the shop has no products to buy");
  const receipt = await receiptJpeg();
  const stats = new Stats(onOrder);
  const started = Date.now();
  const deadline = started + durationMs;
  const samples = [];
  const sample = () => {
    const latencies = stats.takeWindow();
    const entry = {
      seconds: Math.round((Date.now() - started) / 1000),
      rss: rssOf(pid),
      wal: walSize(databaseFile),
      requests: latencies.length,
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      max: latencies.at(-1) ?? 0,
      orders: stats.orders.length,
      serverErrors: stats.serverErrors.length,
    };
    samples.push(entry);
    onSample(entry);
  };
  const timer = setInterval(sample, sampleEveryMs);
  try {
    await Promise.all(
      Array.from({ length: shoppers }, (_, i) =>
        shop(new Shopper(baseURL, stats, i), catalogue, receipt, deadline, stats, maxVisits, signal).catch((error) => {
          stats.failures.push(`shopper ${i}: ${error instanceof Error ? error.message : error}`);
        }),
      ),
    );
  } finally {
    clearInterval(timer);
  }
  sample();
  return { stats, samples, initialStock: catalogue.stock, seconds: (Date.now() - started) / 1000 };
}

/**
 * @typedef {{ seconds: number; rss: number | null; wal: number; requests: number; p50: number; p95: number;
 *   max: number; orders: number; serverErrors: number }} Sample
 */

/** @param {Sample} s */
export function formatSample(s) {
  return `${String(s.seconds).padStart(5)} s  RSS ${mb(s.rss).padStart(9)}  WAL ${mb(s.wal).padStart(9)}  ${String(s.requests).padStart(6)} req  p50 ${s.p50.toFixed(0).padStart(5)} ms  p95 ${s.p95.toFixed(0).padStart(5)} ms  max ${s.max.toFixed(0).padStart(6)} ms  orders ${s.orders}  5xx ${s.serverErrors}`;
}

/**
 * Memory or WAL that keeps growing: the largest value of the last third of the run against
 * the largest of the middle third (the first third is warm-up: caches fill, JIT settles).
 */
export function growth(samples, key) {
  const values = samples.map((s) => s[key]).filter((v) => typeof v === "number");
  if (values.length < 6) return { middle: null, last: null, ratio: null };
  const third = Math.floor(values.length / 3);
  const middle = Math.max(...values.slice(third, 2 * third));
  const last = Math.max(...values.slice(2 * third));
  return { middle, last, ratio: middle > 0 ? last / middle : null };
}

/* ------------------------------------------------------------------------------------------
 * npm run soak
 * ------------------------------------------------------------------------------------------ */

/** Hard limits for a small VPS shop (docs/backups.md explains them). */
const RSS_LIMIT = 1024 * 1024 * 1024;
const WAL_LIMIT = 256 * 1024 * 1024;
/** Growth from the middle third to the last third that counts as "does not level off". */
const GROWTH_LIMIT = 1.5;
const GROWTH_FLOOR = 64 * 1024 * 1024;

async function main() {
  const minutes = Number(process.env.SOAK_MINUTES ?? 10);
  const shoppers = Number(process.env.SOAK_SHOPPERS ?? 50);
  const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
  const root = fileURLToPath(new URL("..", import.meta.url));
  const buildDir = process.env.BUILD_DIR ?? "build";
  if (!fs.existsSync(path.join(root, buildDir, "server", "index.js"))) {
    console.error(`No production build in ${buildDir}/: run "npm run build" first (the soak builds nothing).`);
    process.exit(2);
  }
  const { newShopFiles, removeFiles, startShop } = await import("../tests/reliability/shop.ts");
  const files = newShopFiles("soak");
  let shopProcess = null;
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    await shopProcess?.stop();
    removeFiles(files);
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      console.error(`${signal}: stopping the shop`);
      cleanUp().finally(() => process.exit(130));
    });
  }

  const problems = [];
  try {
    shopProcess = await startShop({ files });
    const pid = shopProcess.child.pid;
    console.info(
      `soak: ${shoppers} shoppers for ${minutes} min on ${shopProcess.baseURL} (build ${buildDir}, pid ${pid}), a sample every ${sampleSeconds} s`,
    );
    const { stats, samples, initialStock, seconds } = await runLoad({
      baseURL: shopProcess.baseURL,
      databaseFile: files.databaseFile,
      pid,
      shoppers,
      durationMs: minutes * 60_000,
      sampleEveryMs: sampleSeconds * 1000,
      onSample: (s) => console.info(formatSample(s)),
    });
    const stock = checkStock(files.databaseFile, initialStock);
    const rssGrowth = growth(samples, "rss");
    const walGrowth = growth(samples, "wal");
    const peakRss = Math.max(...samples.map((s) => s.rss ?? 0));
    const peakWal = Math.max(...samples.map((s) => s.wal));
    console.info(
      `done in ${seconds.toFixed(0)} s: ${stats.requests} requests (${JSON.stringify(stats.statuses)}), ${stats.orders.length} orders confirmed, ${stats.refused} sold-out refusals; in the database ${stock.orders} orders, ${stock.items} items, ${stock.soldOut} colours sold out`,
    );
    console.info(
      `peak RSS ${mb(peakRss)} (middle third ${mb(rssGrowth.middle)}, last third ${mb(rssGrowth.last)}); peak WAL ${mb(peakWal)} (middle ${mb(walGrowth.middle)}, last ${mb(walGrowth.last)})`,
    );

    if (stats.serverErrors.length > 0)
      problems.push(`${stats.serverErrors.length} 5xx: ${stats.serverErrors.slice(0, 5)}`);
    if (stats.failures.length > 0) problems.push(`${stats.failures.length} failures: ${stats.failures.slice(0, 5)}`);
    if (stock.negative.length > 0) problems.push(`oversold: ${stock.negative.map(([k, v]) => `${k}=${v}`)}`);
    if (stock.mismatched.length > 0) problems.push(`stock and orders disagree: ${stock.mismatched.slice(0, 5)}`);
    if (stock.orders !== stats.orders.length) {
      problems.push(`${stats.orders.length} orders confirmed to shoppers, ${stock.orders} in the database`);
    }
    if (peakRss > RSS_LIMIT) problems.push(`RSS reached ${mb(peakRss)} (limit ${mb(RSS_LIMIT)})`);
    if (peakWal > WAL_LIMIT) problems.push(`the WAL reached ${mb(peakWal)} (limit ${mb(WAL_LIMIT)})`);
    for (const [name, g] of [
      ["RSS", rssGrowth],
      ["WAL", walGrowth],
    ]) {
      if (g.ratio !== null && g.ratio > GROWTH_LIMIT && g.last - g.middle > GROWTH_FLOOR) {
        problems.push(`${name} kept growing: ${mb(g.middle)} in the middle third, ${mb(g.last)} in the last`);
      }
    }
    const errors = shopProcess.stderr().trim();
    if (errors) console.info(`server stderr (last 2000 characters):\n${errors.slice(-2000)}`);
  } catch (error) {
    problems.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    await cleanUp();
  }
  if (problems.length > 0) {
    console.error(`SOAK FAILED:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    process.exit(1);
  }
  console.info("soak passed: no 5xx, no oversell, memory and WAL bounded");
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
