#!/usr/bin/env node
// npm run bench: issue 8's HTTP benchmark. Builds the production server (build-bench), seeds a
// shop of 10,000 products / 50 categories / 50,000 orders / 100,000 page views in a temporary
// folder, starts it, and measures it with autocannon next to a raw node:http server (B0, the
// machine's limit) and the server's own /healthz (B1, the framework's floor). Prints a table with
// the issue's targets and writes the same as JSON to bench/results/<timestamp>.json.
//
// Then the same data on PostgreSQL (P1-P6: copied with db:copy into a throwaway cluster, Debian's
// postgresql), in the same run so every figure is a ratio to the same B0 and B1.
//
// Issue 17: B2/B3 also as a signed-in shopper (never cached: the server's CPU per page measured
// from /proc), with the page cache cold (a second shop process with PAGE_CACHE_MB=0), and with
// WEB_CONCURRENCY at its default (one process per core) where every other row runs with
// WEB_CONCURRENCY=1, so the figures stay comparable to earlier runs.
//
// Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 10),
// BENCH_SKIP_BUILD=1 (reuse build-bench when it exists), BENCH_POSTGRES=0 (SQLite only),
// BENCH_ONLY=B6,B6D (only these rows, besides B0 and B1 that every ratio needs; the P rows all
// when one is named).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** `npm start`'s command line (package.json), which startShop runs as it is. */
const START_SCRIPT = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
const BUILD_DIR = "build-bench";
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SHOPPERS = 50;
/** BENCH_ONLY: the rows to measure (B0 and B1 always); empty = all. */
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? "")
    .split(",")
    .map((id) => id.trim().toUpperCase())
    .filter(Boolean),
);
const wanted = (id) => ONLY.size === 0 || id === "B0" || id === "B1" || ONLY.has(id);
/** Listing URLs (of the 600 categoryPaths makes) and product pages the page benches read. */
const HOT_LISTINGS = 100;
const HOT_PRODUCTS = 300;
const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-language": "en-GB,en;q=0.9",
  "accept-encoding": "gzip",
};

/* ------------------------------------------------------------------------------------------
 * Clean-up: every process this script starts is stopped by its pid, every temp folder removed,
 * on success, on errors and on SIGINT/SIGTERM.
 * ------------------------------------------------------------------------------------------ */

const children = new Set();
const tempDirs = [];
let currentCannon = null;
let cleaning = null;
/** The running shop, for the error report. */
let runningShop = null;

function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

function exited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

async function stopChild(child, graceMs = 12_000) {
  if (exited(child)) return;
  const done = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = new Promise((resolve) => setTimeout(resolve, graceMs, "timeout"));
  if ((await Promise.race([done, timer])) === "timeout" && !exited(child)) {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {}
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  }
}

function cleanup() {
  cleaning ??= (async () => {
    currentCannon?.stop();
    await Promise.all([...children].map((child) => stopChild(child)));
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the benchmark's processes and removing its temp folders`);
    cleanup().finally(() => process.exit(130));
  });
}

/* ------------------------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------------------------ */

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** The shop's processes: the one started and, when it is a cluster primary, its workers. */
function shopPids(pid) {
  if (!pid) return [];
  let children = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {}
  return [pid, ...children];
}

const CLOCK_TICKS_PER_S = 100;

/** CPU time (user + system, ms) used so far by these processes (fields 14 and 15 of /proc/<pid>/stat). */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/** The largest RSS of any one of the shop's processes (the target is per process). */
function maxRssMb(pid) {
  const sizes = shopPids(pid)
    .map(rssMb)
    .filter((mb) => mb !== null);
  return sizes.length ? Math.max(...sizes) : null;
}

function percentile(sorted, q) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Set-Cookie headers folded into a cookie jar (name → value). */
function keepCookies(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
}

const cookieHeader = (jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/** A deterministic shuffle (the same URL mix every run). */
function shuffled(items, seed = 42) {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

async function runStep(label, command, args, options, timeoutMs) {
  const child = track(spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], ...options }));
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const code = await withTimeout(
    new Promise((resolve) => child.once("exit", (c) => resolve(c))),
    timeoutMs,
    label,
  ).catch(async (error) => {
    await stopChild(child);
    throw error;
  });
  if (code !== 0) throw new Error(`${label} failed (exit ${code}):\n${output.slice(-4000)}`);
  return output;
}

/* ------------------------------------------------------------------------------------------
 * The servers
 * ------------------------------------------------------------------------------------------ */

const RAW_SERVER = `
const http = require("node:http");
const body = Buffer.from('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Raw</title></head>' +
  '<body><h1>Harbour Tactical</h1><p>A fixed small page from node:http, the machine\\'s limit.</p></body></html>');
const server = http.createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`;

async function startRawServer() {
  const child = track(spawn(process.execPath, ["-e", RAW_SERVER], { stdio: ["ignore", "pipe", "inherit"] }));
  const port = await withTimeout(
    new Promise((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once("line", (line) => resolve(Number(line)));
      child.once("exit", (code) => reject(new Error(`raw server exited (${code})`)));
    }),
    10_000,
    "raw node:http server",
  );
  return { child, origin: `http://127.0.0.1:${port}` };
}

/** The shop's request log, counted per benchmark phase; 5xx lines and error output kept. */
function watchShopLog(child) {
  const log = { phase: "start", lines: 0, statuses: {}, serverMs: {}, serverErrors: [], stderr: [] };
  // The server's JSON request lines (docs/decisions/062): { method, path, status, ms, … }.
  readline.createInterface({ input: child.stdout }).on("line", (text) => {
    let entry;
    try {
      entry = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof entry?.status !== "number" || typeof entry.ms !== "number") return;
    const status = String(entry.status);
    log.lines++;
    log.serverMs[log.phase] ??= [];
    const times = log.serverMs[log.phase];
    if (times.length < 200_000) times.push(entry.ms);
    log.statuses[log.phase] ??= {};
    const counts = log.statuses[log.phase];
    counts[status] = (counts[status] ?? 0) + 1;
    if (status.startsWith("5") && log.serverErrors.length < 40) log.serverErrors.push(`[${log.phase}] ${entry.msg}`);
  });
  readline.createInterface({ input: child.stderr }).on("line", (text) => {
    log.stderr.push(`[${log.phase}] ${text}`);
    if (log.stderr.length > 200) log.stderr.splice(0, log.stderr.length - 200);
  });
  return log;
}

/**
 * The shop on `dirs`. `env` adds settings; WEB_CONCURRENCY is 1 unless `env` says otherwise
 * (an empty WEB_CONCURRENCY is npm start's default, one process per core).
 */
async function startShop(dirs, env = {}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = track(
    // `npm start` itself (package.json's script, run by sh as npm runs it, on this Node): the
    // shop is measured with the flags and environment a user's start gives it. The script execs
    // node, so the child's pid is the shop's.
    spawn("/bin/sh", ["-c", START_SCRIPT], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: origin,
        DATABASE_URL: dirs.databaseUrl ?? `file:${dirs.database}`,
        DATA_DIR: dirs.data,
        UPLOADS_DIR: dirs.uploads,
        BUILD_DIR,
        // The request lines are counted from their JSON (watchShopLog).
        LOG_FORMAT: "json",
        RATE_LIMIT_ADDRESS_FACTOR: "100000",
        WEB_CONCURRENCY: "1",
        ...env,
      },
    }),
  );
  const log = watchShopLog(child);
  const deadline = Date.now() + 60_000;
  let coldStartMs = null;
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`the shop exited during start:\n${log.stderr.join("\n")}`);
    try {
      const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        coldStartMs = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  if (coldStartMs === null) throw new Error("the shop did not answer /healthz within 60 s");
  // A cluster answers as soon as its first worker listens: give the others a moment.
  if (env.WEB_CONCURRENCY !== undefined && env.WEB_CONCURRENCY !== "1") await sleep(3000);
  return { child, origin, coldStartMs, log };
}

/* ------------------------------------------------------------------------------------------
 * Measuring
 * ------------------------------------------------------------------------------------------ */

function cannon(options) {
  return new Promise((resolve, reject) => {
    currentCannon = autocannon({ connections: CONNECTIONS, timeout: 10, ...options }, (error, result) => {
      currentCannon = null;
      if (error) reject(error);
      else resolve(result);
    });
  });
}

function summarize(result) {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  const refused = Object.entries(statuses)
    .filter(([code]) => Number(code) >= 400 || Number(code) < 200)
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    rps: Math.round(result.requests.average),
    requests: result.requests.total,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    max_ms: result.latency.max,
    errors: result.errors + result.timeouts,
    bad: result.errors + result.timeouts + refused,
    statuses,
  };
}

/** A short warm-up, then the measured run, with the shop's RSS sampled and its log counted. */
/**
 * autocannon stops with requests still queued in the server: wait until the shop's request log
 * has been quiet for 600 ms (at most 30 s), so they do not spill into the next measurement.
 */
async function drain(ctx) {
  if (!ctx.log) return sleep(300);
  const deadline = Date.now() + 30_000;
  let last = -1;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (ctx.log.lines !== last) {
      last = ctx.log.lines;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= 600) return;
    await sleep(100);
  }
}

/** The shop's own time (its request log) for the requests of one phase. */
function serverTimes(ctx, phase) {
  const times = [...(ctx.log?.serverMs[phase] ?? [])].sort((a, b) => a - b);
  if (times.length === 0) return null;
  return { count: times.length, p50_ms: percentile(times, 0.5), p99_ms: percentile(times, 0.99) };
}

async function measure(ctx, id, options, { warmup = true } = {}) {
  if (warmup) {
    ctx.phase(`${id} warm-up`);
    await cannon({ ...options, duration: WARMUP });
    await drain(ctx);
  }
  ctx.phase(id);
  const load = os.loadavg()[0];
  const rss = [];
  const sampler = ctx.shopPid
    ? setInterval(() => {
        const mb = maxRssMb(ctx.shopPid);
        if (mb !== null) rss.push(mb);
      }, 250)
    : null;
  const pids = shopPids(ctx.shopPid);
  const cpuBefore = cpuMs(pids);
  try {
    const result = summarize(await cannon({ ...options, duration: DURATION }));
    await drain(ctx);
    if (pids.length) {
      result.processes = pids.length > 1 ? pids.length - 1 : 1;
      const used = cpuMs(pids) - cpuBefore;
      result.cpu_ms_per_request = result.requests ? Number((used / result.requests).toFixed(2)) : null;
    }
    result.loadavg_before = Number(load.toFixed(2));
    result.shop_time = serverTimes(ctx, id);
    if (rss.length) result.shop_rss_max_mb = Math.max(...rss);
    console.info(
      `  ${id}: ${result.rps} req/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, ` +
        `statuses ${JSON.stringify(result.statuses)}, errors ${result.errors}` +
        (result.shop_time ? `; in the shop p50 ${result.shop_time.p50_ms} ms, p99 ${result.shop_time.p99_ms} ms` : "") +
        (result.cpu_ms_per_request != null ? `; CPU ${result.cpu_ms_per_request} ms/request` : "") +
        `; load average ${result.loadavg_before}`,
    );
    return result;
  } finally {
    if (sampler) clearInterval(sampler);
  }
}

/** One request at a time through a list of paths shared by every connection. */
function rotating(paths, extra = {}) {
  let next = 0;
  return [
    {
      method: "GET",
      ...extra,
      setupRequest: (request) => {
        const pathName = paths[next % paths.length];
        next++;
        return { ...request, path: pathName };
      },
    },
  ];
}

/** Asks for each path once, four at a time (fills the page cache before a "cache warm" run). */
async function visitOnce(origin, paths) {
  const queue = [...paths];
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const response = await fetch(`${origin}${path}`, { headers: BROWSER_HEADERS });
      await response.arrayBuffer();
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

function categoryPaths(slugs) {
  const sorts = [null, "featured", "newest", "price-low-high", "price-high-low"];
  const prices = [null, null, "budget", "mid", "high", "top"];
  const pages = [1, 1, 1, 2, 3, 5, 10];
  const paths = [];
  const all = ["all", "new-arrivals", ...slugs];
  for (let i = 0; i < 600; i++) {
    const params = new URLSearchParams();
    const sort = sorts[i % sorts.length];
    const price = prices[Math.floor(i / 5) % prices.length];
    const page = pages[Math.floor(i / 7) % pages.length];
    if (sort) params.set("sort", sort);
    if (price) params.set("price", price);
    if (page > 1) params.set("page", String(page));
    const query = params.toString();
    paths.push(`/category/${all[i % all.length]}${query ? `?${query}` : ""}`);
  }
  return shuffled(paths);
}

const SEARCHES = [
  // English, 3+ characters (full-text) and 2 characters
  "carbine",
  "pistol",
  "tactical vest",
  "rifle",
  "m4",
  "ak",
  // Chinese, 2 characters and 3+
  "手槍",
  "長槍",
  "霰彈槍",
  "戰術背心",
];

/* ------------------------------------------------------------------------------------------
 * Signed-in pages, a cold cache, every core (issue 17)
 * ------------------------------------------------------------------------------------------ */

/** Signs up one shopper: its Cookie header. */
async function signedInCookie(origin, name) {
  const jar = new Map();
  const email = `bench-reader-${name}-${Date.now()}@example.com`;
  const response = await fetch(`${origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { ...BROWSER_HEADERS, origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      intent: "signup",
      email,
      password: `pw-${name}-bench-secret`,
      redirectTo: "/",
    }).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  keepCookies(jar, response);
  if (response.status !== 302) throw new Error(`sign-up of ${email} answered ${response.status}`);
  return cookieHeader(jar);
}

/**
 * The plain (uncompressed) HTML bytes of the first listing and the first product page the page
 * benches read, anonymous and signed in (issue 31: a listing ≤ 40 KB).
 */
async function pageBytes(origin, listing, product) {
  const cookie = await signedInCookie(origin, "bytes");
  const size = async (pathName, signedIn) => {
    const response = await fetch(`${origin}${pathName}`, {
      headers: { ...BROWSER_HEADERS, "accept-encoding": "identity", ...(signedIn ? { cookie } : {}) },
      signal: AbortSignal.timeout(15_000),
    });
    const bytes = (await response.arrayBuffer()).byteLength;
    if (response.status !== 200) throw new Error(`${pathName} answered ${response.status}`);
    return { path: pathName, bytes };
  };
  return {
    listing: await size(listing, false),
    product: await size(product, false),
    listing_signed_in: await size(listing, true),
    product_signed_in: await size(product, true),
  };
}

/** A shop's ctx for measure(): its pid (and workers') for RSS and CPU, its log for the phases. */
function shopContext(shop) {
  return {
    shopPid: shop.child.pid,
    log: shop.log,
    phase: (name) => {
      shop.log.phase = name;
    },
  };
}

/**
 * Category listings and product pages on `shop`: anonymous (ids `${prefix}2`, `${prefix}3` plus
 * `suffix`) and, with `signedIn`, as one signed-in shopper (`…S`, uncached).
 */
async function pageBenches(
  benches,
  shop,
  { prefix, suffix = "", label, categories, products, anonymous = true, signedIn = false },
) {
  const ctx = shopContext(shop);
  const pages = [
    ["2", "category listings", categories],
    ["3", "product pages", products],
  ];
  if (anonymous) {
    for (const [n, what, paths] of pages) {
      const id = `${prefix}${n}${suffix}`;
      if (!wanted(id)) continue;
      await visitOnce(shop.origin, paths);
      benches[id] = {
        label: `${what}${label}`,
        ...(await measure(ctx, id, { url: shop.origin, headers: BROWSER_HEADERS, requests: rotating(paths) })),
      };
    }
  }
  if (signedIn && pages.some(([n]) => wanted(`${prefix}${n}${suffix}S`))) {
    const cookie = await signedInCookie(shop.origin, `${prefix}${suffix}`);
    for (const [n, what, paths] of pages) {
      const id = `${prefix}${n}${suffix}S`;
      if (!wanted(id)) continue;
      benches[id] = {
        label: `${what} · signed in${label}`,
        ...(await measure(ctx, id, {
          url: shop.origin,
          headers: { ...BROWSER_HEADERS, cookie },
          requests: rotating(paths),
        })),
      };
    }
  }
}

/* ------------------------------------------------------------------------------------------
 * B5: add to cart with one session per connection
 * ------------------------------------------------------------------------------------------ */

/**
 * Reads the figures B5/B6 check straight from the shop's database, SQLite file or PostgreSQL URL.
 * Every method answers a promise; `close` ends the connection.
 */
async function openReader(databaseUrl) {
  const queries = {
    cart: "select coalesce(sum(quantity), 0) quantity, count(*) lines from cart_lines where product_id = ? and color = ?",
    stock: "select stock from product_variants where product_id = ? and color = ?",
    sold: `select coalesce(sum(l.quantity), 0) quantity, count(distinct l.order_id) orders
             from order_lines l where l.product_id = ? and l.color = ?`,
  };
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const numeric = (row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
    const get = async (sql, ...params) => {
      let n = 0;
      const result = await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return numeric(result.rows[0]);
    };
    return {
      cart: (id, color) => get(queries.cart, id, color),
      stock: async (id, color) => (await get(queries.stock, id, color)).stock,
      sold: (id, color) => get(queries.sold, id, color),
      close: () => client.end(),
    };
  }
  const sqlite = new SQLite(databaseUrl.replace(/^file:/, ""), { readonly: true });
  const cart = sqlite.prepare(queries.cart);
  const stock = sqlite.prepare(queries.stock);
  const sold = sqlite.prepare(queries.sold);
  return {
    cart: async (id, color) => cart.get(id, color),
    stock: async (id, color) => stock.get(id, color).stock,
    sold: async (id, color) => sold.get(id, color),
    close: async () => sqlite.close(),
  };
}

async function cartQuantity(databaseUrl, productId, color) {
  const reader = await openReader(databaseUrl);
  try {
    return await reader.cart(productId, color);
  } finally {
    await reader.close();
  }
}

async function benchAddToCart(ctx, shop, dataset, databaseUrl, id5 = "B5") {
  const { id, color } = dataset.cartProduct;
  const form = new URLSearchParams({ intent: "add", productId: String(id), color, quantity: "1", redirectTo: "/cart" });
  // Each connection's session: GET a page (its cookies), then a first add, which saves the session.
  const sessions = [];
  let primed = 0;
  for (let i = 0; i < CONNECTIONS; i++) {
    const jar = new Map();
    const page = await fetch(`${shop.origin}/product/${id}`, {
      headers: BROWSER_HEADERS,
      signal: AbortSignal.timeout(15_000),
    });
    await page.arrayBuffer();
    keepCookies(jar, page);
    const first = await fetch(`${shop.origin}/cart`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...BROWSER_HEADERS,
        "content-type": "application/x-www-form-urlencoded",
        origin: shop.origin,
        cookie: cookieHeader(jar),
      },
      body: form.toString(),
      signal: AbortSignal.timeout(15_000),
    });
    await first.arrayBuffer();
    if (first.status !== 302) throw new Error(`B5: the first add to cart answered ${first.status}`);
    primed++;
    keepCookies(jar, first);
    if (![...jar.keys()].some((name) => name.endsWith("sid")))
      throw new Error(`B5: no session cookie after the first add (cookies: ${[...jar.keys()].join(", ")})`);
    sessions.push(cookieHeader(jar));
  }
  let clientIndex = 0;
  const options = {
    url: `${shop.origin}/cart`,
    method: "POST",
    body: form.toString(),
    headers: { ...BROWSER_HEADERS, "content-type": "application/x-www-form-urlencoded", origin: shop.origin },
    setupClient: (client) => {
      const cookie = sessions[clientIndex++ % sessions.length];
      client.setHeaders({
        ...BROWSER_HEADERS,
        "content-type": "application/x-www-form-urlencoded",
        origin: shop.origin,
        cookie,
      });
    },
  };
  // Warm-up, then the measured run between two readings of the database.
  ctx.phase(`${id5} warm-up`);
  const warm = summarize(await cannon({ ...options, duration: WARMUP }));
  await drain(ctx);
  const before = await cartQuantity(databaseUrl, id, color);
  const result = await measure(ctx, id5, options, { warmup: false });
  const after = await cartQuantity(databaseUrl, id, color);
  const succeeded = result.statuses["302"] ?? 0;
  const written = after.quantity - before.quantity;
  // autocannon stops with up to one request in flight per connection: those can be written
  // without their answer being counted, never the other way round.
  result.writes = {
    successful_posts: succeeded,
    quantity_added_in_db: written,
    carts: after.lines,
    primed_sessions: primed,
    warmup_posts_302: warm.statuses["302"] ?? 0,
    lost: Math.max(0, succeeded - written),
    unanswered_in_flight: Math.max(0, written - succeeded),
    refused_303: result.statuses["303"] ?? 0,
  };
  return result;
}

/* ------------------------------------------------------------------------------------------
 * B6: 50 concurrent checkouts of one scarce colour
 * ------------------------------------------------------------------------------------------ */

const CHECKOUT_DETAILS = {
  firstName: "Chan",
  lastName: "Tai Man",
  phone: "+852 9123 4567",
  address: "Flat A, 12/F, 1 Nathan Road",
  city: "Tsim Sha Tsui",
  country: "Hong Kong",
};

async function prepareShopper(origin, product, n) {
  const jar = new Map();
  const email = `bench-buyer-${n}-${Date.now()}@example.com`;
  const post = async (pathName, body, contentType) => {
    const response = await fetch(`${origin}${pathName}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        ...BROWSER_HEADERS,
        origin,
        cookie: cookieHeader(jar),
        ...(contentType ? { "content-type": contentType } : {}),
      },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    keepCookies(jar, response);
    return response;
  };
  const urlencoded = "application/x-www-form-urlencoded";
  const signup = await post(
    "/login",
    new URLSearchParams({ intent: "signup", email, password: `pw-${n}-bench-secret`, redirectTo: "/" }).toString(),
    urlencoded,
  );
  if (signup.status !== 302) throw new Error(`B6: sign-up ${n} answered ${signup.status}`);
  const add = await post(
    "/cart",
    new URLSearchParams({
      intent: "add",
      productId: String(product.id),
      color: product.color,
      quantity: "1",
      redirectTo: "/cart",
    }).toString(),
    urlencoded,
  );
  if (add.status !== 302) throw new Error(`B6: add to cart ${n} answered ${add.status}`);
  const checkout = await post("/checkout", new URLSearchParams({ ...CHECKOUT_DETAILS, email }).toString(), urlencoded);
  if (checkout.status !== 302 || !/\/payment$/.test(checkout.headers.get("location") ?? ""))
    throw new Error(`B6: checkout ${n} answered ${checkout.status} → ${checkout.headers.get("location")}`);
  const page = await fetch(`${origin}/payment`, {
    headers: { ...BROWSER_HEADERS, cookie: cookieHeader(jar) },
    signal: AbortSignal.timeout(30_000),
  });
  const html = await page.text();
  const submissionKey = /name="submissionKey" value="([^"]+)"/.exec(html)?.[1];
  if (!submissionKey) throw new Error(`B6: /payment of shopper ${n} has no submission key (${page.status})`);
  return { jar, submissionKey, email };
}

async function benchCheckouts(ctx, shop, dataset, databaseUrl, id6 = "B6") {
  ctx.phase(`${id6} setup`);
  const product = dataset.scarceProduct;
  const { default: sharp } = await import("sharp");
  const receipt = await sharp({
    create: { width: 480, height: 320, channels: 3, background: { r: 24, g: 110, b: 190 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  const setupStarted = Date.now();
  const shoppers = [];
  // Sign-ups hash passwords (argon2): five at a time.
  for (let i = 0; i < SHOPPERS; i += 5) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, SHOPPERS - i) }, (_, k) => prepareShopper(shop.origin, product, i + k)),
    );
    shoppers.push(...batch);
  }
  const setupMs = Date.now() - setupStarted;

  const reader = await openReader(databaseUrl);
  const stockBefore = await reader.stock(product.id, product.color);
  const soldBefore = await reader.sold(product.id, product.color);
  let minStock = stockBefore;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      minStock = Math.min(minStock, await reader.stock(product.id, product.color));
      await sleep(5);
    }
  })();

  await drain(ctx);
  ctx.phase(id6);
  const load = Number(os.loadavg()[0].toFixed(2));
  const rss = [];
  const rssTimer = setInterval(() => {
    const mb = maxRssMb(ctx.shopPid);
    if (mb !== null) rss.push(mb);
  }, 100);
  const started = performance.now();
  const outcomes = await Promise.all(
    shoppers.map(async (shopper) => {
      const body = new FormData();
      body.set("submissionKey", shopper.submissionKey);
      body.set("receipt", new Blob([receipt], { type: "image/jpeg" }), "receipt.jpg");
      const t0 = performance.now();
      try {
        const response = await fetch(`${shop.origin}/payment`, {
          method: "POST",
          redirect: "manual",
          headers: { ...BROWSER_HEADERS, origin: shop.origin, cookie: cookieHeader(shopper.jar) },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        return {
          status: response.status,
          ms: performance.now() - t0,
          success: response.status === 302 && /payment-success/.test(response.headers.get("location") ?? ""),
        };
      } catch (error) {
        return { status: 0, ms: performance.now() - t0, success: false, error: String(error) };
      }
    }),
  );
  const wallMs = performance.now() - started;
  clearInterval(rssTimer);
  await sleep(200);
  sampling = false;
  await sampler;
  const stockAfter = await reader.stock(product.id, product.color);
  const soldAfter = await reader.sold(product.id, product.color);
  await reader.close();

  const latencies = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const statuses = {};
  for (const o of outcomes) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
  const succeeded = outcomes.filter((o) => o.success).length;
  const soldQuantity = soldAfter.quantity - soldBefore.quantity;
  const expected = Math.min(SHOPPERS, stockBefore);
  const result = {
    rps: null,
    requests: outcomes.length,
    p50_ms: Number(percentile(latencies, 0.5).toFixed(1)),
    p99_ms: Number(percentile(latencies, 0.99).toFixed(1)),
    max_ms: Number(latencies.at(-1).toFixed(1)),
    errors: outcomes.filter((o) => o.status === 0).length,
    bad: outcomes.filter((o) => o.status === 0 || o.status >= 500).length,
    statuses,
    shop_rss_max_mb: rss.length ? Math.max(...rss) : null,
    shop_time: serverTimes(ctx, id6),
    loadavg_before: load,
    checkout: {
      shoppers: SHOPPERS,
      setup_ms: setupMs,
      wall_ms: Math.round(wallMs),
      stock_before: stockBefore,
      stock_after: stockAfter,
      stock_min_seen: minStock,
      succeeded,
      expected_successes: expected,
      orders_for_product: soldAfter.orders - soldBefore.orders,
      quantity_sold: soldQuantity,
      oversold: soldQuantity > stockBefore || stockAfter < 0 || minStock < 0,
      errors: outcomes.filter((o) => o.error).map((o) => o.error),
    },
  };
  console.info(
    `  ${id6}: ${succeeded}/${SHOPPERS} paid (expected ${expected}), p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, ` +
      `statuses ${JSON.stringify(statuses)}, stock ${stockBefore} → ${stockAfter} (min seen ${minStock})`,
  );
  return result;
}

/* ------------------------------------------------------------------------------------------
 * Report
 * ------------------------------------------------------------------------------------------ */

const pct = (value, base) => (value == null || !base ? null : (100 * value) / base);

function printReport(report) {
  const { benches } = report;
  const b0 = benches.B0?.rps;
  const b1 = benches.B1?.rps;
  const fmt = (n, digits = 0) => (n == null ? "-" : Number(n).toFixed(digits));
  const rows = Object.entries(benches).map(([id, r]) => ({
    bench: `${id} ${r.label}`,
    "req/s": fmt(r.rps),
    "p50 ms": fmt(r.p50_ms, 1),
    "p99 ms": fmt(r.p99_ms, 1),
    requests: r.requests,
    "errors/bad": `${r.errors}/${r.bad}`,
    "% of B0": r.rps == null ? "-" : `${fmt(pct(r.rps, b0), 2)}%`,
    "% of B1": r.rps == null ? "-" : `${fmt(pct(r.rps, b1), 1)}%`,
    "shop p50/p99 ms": r.shop_time ? `${r.shop_time.p50_ms}/${r.shop_time.p99_ms}` : "-",
    "CPU ms/req": r.cpu_ms_per_request ?? "-",
    procs: r.processes ?? "-",
    load: r.loadavg_before ?? "-",
  }));
  console.info(
    "\nResults (autocannon, %d connections, %d s after a %d s warm-up; all on 127.0.0.1):",
    CONNECTIONS,
    DURATION,
    WARMUP,
  );
  console.info(
    "Every row runs on one shop process (WEB_CONCURRENCY=1, comparable to earlier runs) unless its label says " +
      '"processes (default)": npm start\'s default, one per core. "cache off": a shop process with PAGE_CACHE_MB=0; ' +
      '"signed in": one signed-in shopper (issue 31: the cached page with their header spliced in). CPU ms/req: user+system CPU of the shop\'s processes ' +
      "(/proc/<pid>/stat, workers summed) over the measured window, per request.",
  );
  console.table(rows);
  console.info(
    `Shop: cold start ${fmt(report.shop.cold_start_ms)} ms; RSS idle ${report.shop.rss_idle_mb} MB, ` +
      `max under load ${report.shop.rss_max_under_load_mb} MB, after ${report.shop.rss_after_mb} MB`,
  );
  const kb = (entry) => (entry ? `${(entry.bytes / 1024).toFixed(1)} KB` : "-");
  const bytes = report.page_bytes ?? {};
  console.info(
    `HTML per page (plain): category listing ${kb(bytes.listing)} (signed in ${kb(bytes.listing_signed_in)}), ` +
      `product page ${kb(bytes.product)} (signed in ${kb(bytes.product_signed_in)})`,
  );
  console.info("\nTargets (issue 31, and the earlier issues' floors):");
  for (const t of report.targets) console.info(`  ${t.pass ? "PASS" : "FAIL"}  ${t.target}: ${t.measured}`);
}

function judge(report) {
  const { benches, shop } = report;
  const b1 = benches.B1.rps;
  const targets = [];
  const add = (target, pass, measured) => targets.push({ target, pass: Boolean(pass), measured });
  const ofB1 = (r) => `${pct(r.rps, b1).toFixed(1)}% (${r.rps} of ${b1} req/s)`;
  const { B4, B5 } = benches;
  // Issue 31. Anonymous pages with the cache warm (one process, as every row not marked otherwise).
  for (const id of ["B2", "B3"]) {
    const r = benches[id];
    if (!r) continue;
    add(`${id} (anonymous, cache warm) ≥ 40% of B1`, pct(r.rps, b1) >= 40, ofB1(r));
    add(`${id} (anonymous, cache warm) p99 ≤ 25 ms`, r.requests > 0 && r.p99_ms <= 25, `${r.p99_ms} ms`);
  }
  // Signed in: the same pages for one signed-in shopper, ≥ 80% of the anonymous warm figure.
  for (const [id, base] of [
    ["B2S", "B2"],
    ["B3S", "B3"],
  ]) {
    const r = benches[id];
    const anonymous = benches[base];
    if (!r || !anonymous) continue;
    add(
      `${id} (signed in) ≥ 80% of ${base}`,
      pct(r.rps, anonymous.rps) >= 80,
      `${pct(r.rps, anonymous.rps).toFixed(1)}% (${r.rps} of ${anonymous.rps} req/s)`,
    );
  }
  // Uncached: the page cache off.
  if (benches.B2C)
    add("B2C (category listing, cache off) ≥ 1.5% of B1", pct(benches.B2C.rps, b1) >= 1.5, ofB1(benches.B2C));
  const listing = report.page_bytes?.listing;
  if (listing)
    add(
      "category listing HTML ≤ 40 KB (plain)",
      listing.bytes <= 40 * 1024,
      `${(listing.bytes / 1024).toFixed(1)} KB (${listing.path})`,
    );
  // Earlier issues' floors.
  if (B4) {
    add("B4 ≥ 4% of B1", pct(B4.rps, b1) >= 4, ofB1(B4));
    add("B4 p99 ≤ 60 ms", B4.requests > 0 && B4.p99_ms <= 60, `${B4.p99_ms} ms`);
  }
  if (B5) {
    add("B5 ≥ 10% of B1", pct(B5.rps, b1) >= 10, ofB1(B5));
    add(
      "B5 no lost write",
      B5.writes.lost === 0,
      `${B5.writes.successful_posts} successful adds, ${B5.writes.quantity_added_in_db} added in the database` +
        (B5.writes.unanswered_in_flight
          ? ` (${B5.writes.unanswered_in_flight} in flight when autocannon stopped)`
          : ""),
    );
  }
  for (const id of ["B6", "B6D"]) {
    const r = benches[id];
    if (!r) continue;
    add(
      `${id} no oversell`,
      !r.checkout.oversold && r.checkout.succeeded === r.checkout.expected_successes,
      `${r.checkout.succeeded} of ${r.checkout.shoppers} paid (expected ${r.checkout.expected_successes}), ` +
        `${r.checkout.quantity_sold} sold of ${r.checkout.stock_before}, stock ${r.checkout.stock_after} (min seen ${r.checkout.stock_min_seen})`,
    );
    add(`${id} p99 ≤ 400 ms`, r.p99_ms <= 400, `${r.p99_ms} ms (p50 ${r.p50_ms} ms)`);
  }
  add(
    "RSS ≤ 250 MB per process under load",
    shop.rss_max_under_load_mb <= 250,
    `${shop.rss_max_under_load_mb} MB max (largest process)`,
  );
  add("cold start ≤ 1 s", shop.cold_start_ms <= 1000, `${Math.round(shop.cold_start_ms)} ms`);
  const errored = Object.entries(benches).filter(([, r]) => r.bad > 0);
  add(
    "no errors or 4xx/5xx under load",
    errored.length === 0,
    errored.length
      ? errored.map(([id, r]) => `${id}: ${JSON.stringify(r.statuses)} errors ${r.errors}`).join("; ")
      : "none",
  );
  return targets;
}

/* ------------------------------------------------------------------------------------------
 * P1-P6: the same shop on PostgreSQL (issue 16)
 * ------------------------------------------------------------------------------------------ */

/**
 * The SQLite shop's data copied by `db:copy` into a throwaway PostgreSQL cluster (Debian's
 * postgresql, tests/setup/postgres.ts; fsync off there, so writes are cheaper than on a real
 * server), the same build started on it with the same uploads, and B1-B6 measured again as P1-P6
 * in the same run, so every figure is a ratio to the same B0 and B1. Skipped with BENCH_POSTGRES=0.
 */
async function benchPostgres({ benches, dirs, dataset, searchPaths, productPaths, categories, stopSqliteShop }) {
  let cluster;
  try {
    const { startPostgres } = await import("../tests/setup/postgres.ts");
    cluster = await startPostgres();
  } catch (error) {
    console.info(`\nPostgreSQL figures skipped: ${error instanceof Error ? error.message : error}`);
    return { skipped: String(error) };
  }
  try {
    await stopSqliteShop();
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: cluster.url("postgres") });
    await admin.connect();
    await admin.query("create database bench");
    await admin.end();
    const databaseUrl = cluster.url("bench");
    console.info("\nCopying the shop into PostgreSQL (npm run db:copy) …");
    const copyStarted = Date.now();
    await runStep(
      "db:copy",
      process.execPath,
      ["bin/shop.mjs", "db:copy", "--from", `file:${dirs.database}`, "--to", databaseUrl],
      { env: { ...process.env, BUILD_DIR, DATA_DIR: dirs.data, UPLOADS_DIR: dirs.uploads } },
      600_000,
    );
    const copyMs = Date.now() - copyStarted;
    console.info(`  copied in ${(copyMs / 1000).toFixed(1)} s`);
    // B6 sold the scarce colour out on SQLite before the copy: P6 starts from the same stock.
    const scarce = dataset.scarceProduct;
    const restock = new pg.Client({ connectionString: databaseUrl });
    await restock.connect();
    await restock.query("update product_variants set stock = $1 where product_id = $2 and color = $3", [
      scarce.stock,
      scarce.id,
      scarce.color,
    ]);
    await restock.end();
    const shop = await startShop({ ...dirs, databaseUrl });
    const ctx = {
      shopPid: shop.child.pid,
      log: shop.log,
      phase: (name) => {
        shop.log.phase = name;
      },
    };
    const GET = (pathName) => ({ url: `${shop.origin}${pathName}`, headers: BROWSER_HEADERS });
    const on = (label) => `${label} · PostgreSQL`;
    benches.P1 = { label: on("/healthz"), ...(await measure(ctx, "P1", GET("/healthz"))) };
    await visitOnce(shop.origin, categories);
    benches.P2 = {
      label: on(`category listings (${HOT_LISTINGS} URLs, cache warm)`),
      ...(await measure(ctx, "P2", { url: shop.origin, headers: BROWSER_HEADERS, requests: rotating(categories) })),
    };
    await visitOnce(shop.origin, productPaths);
    benches.P3 = {
      label: on(`product pages (${HOT_PRODUCTS} products, cache warm)`),
      ...(await measure(ctx, "P3", { url: shop.origin, headers: BROWSER_HEADERS, requests: rotating(productPaths) })),
    };
    await pageBenches(benches, shop, {
      prefix: "P",
      label: " · PostgreSQL",
      categories,
      products: productPaths,
      anonymous: false,
      signedIn: true,
    });
    benches.P4 = {
      label: on("search (en/zh)"),
      ...(await measure(ctx, "P4", { url: shop.origin, headers: BROWSER_HEADERS, requests: rotating(searchPaths) })),
    };
    benches.P5 = { label: on("add to cart POST"), ...(await benchAddToCart(ctx, shop, dataset, databaseUrl, "P5")) };
    benches.P6 = {
      label: on(`${SHOPPERS} concurrent payments`),
      ...(await benchCheckouts(ctx, shop, dataset, databaseUrl, "P6")),
    };
    ctx.phase("after");
    await stopChild(shop.child);
    const cold = await startShop({ ...dirs, databaseUrl }, { PAGE_CACHE_MB: "0" });
    await pageBenches(benches, cold, {
      prefix: "P",
      suffix: "C",
      label: " · cache off · PostgreSQL",
      categories,
      products: productPaths,
    });
    await stopChild(cold.child);
    const result = {
      copy_ms: copyMs,
      cold_start_ms: Math.round(shop.coldStartMs),
      log_statuses_by_phase: shop.log.statuses,
      server_errors: shop.log.serverErrors,
      stderr_tail: shop.log.stderr.slice(-40),
    };
    await stopChild(shop.child);
    return result;
  } finally {
    cluster.stop();
  }
}

/* ------------------------------------------------------------------------------------------
 * Main
 * ------------------------------------------------------------------------------------------ */

async function main() {
  const startedAt = new Date();
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-httpbench-"));
  tempDirs.push(temp);
  const dirs = {
    data: path.join(temp, "data"),
    uploads: path.join(temp, "uploads"),
    database: path.join(temp, "data", "shop.db"),
  };

  // 1. Build
  const buildExists = fs.existsSync(path.join(ROOT, BUILD_DIR, "server", "index.js"));
  if (process.env.BENCH_SKIP_BUILD === "1" && buildExists) {
    console.info(`Reusing ${BUILD_DIR}/ (BENCH_SKIP_BUILD=1).`);
  } else {
    console.info(`Building the production server into ${BUILD_DIR}/ …`);
    const cli = path.join(ROOT, "node_modules", "@react-router", "dev", "bin.cjs");
    const t0 = Date.now();
    await runStep(
      "react-router build",
      process.execPath,
      [cli, "build"],
      { env: { ...process.env, BUILD_DIR } },
      600_000,
    );
    console.info(`  built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }

  // 2. Seed (TypeScript through Vite, as bench/run.mjs does)
  console.info("Seeding the benchmark database …");
  const seedStarted = Date.now();
  const { createServer } = await import("vite");
  const vite = await createServer({
    server: { middlewareMode: true, hmr: false },
    appType: "custom",
    logLevel: "error",
  });
  let dataset;
  try {
    const mod = await vite.ssrLoadModule("./bench/http/seed-db.ts");
    dataset = await withTimeout(mod.seedHttpBench(dirs.database, dirs.uploads), 600_000, "seeding");
  } finally {
    await vite.close();
  }
  console.info(`  seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s: ${JSON.stringify(dataset.counts)}`);

  // 3. Servers
  const raw = await startRawServer();
  const shop = await startShop(dirs);
  runningShop = shop;
  const shopPid = shop.child.pid;
  await sleep(500);
  const rssIdle = rssMb(shopPid);
  console.info(
    `Shop up in ${Math.round(shop.coldStartMs)} ms (pid ${shopPid}, ${rssIdle} MB RSS); raw server at ${raw.origin}`,
  );
  const ctx = {
    shopPid,
    log: shop.log,
    phase: (name) => {
      shop.log.phase = name;
    },
  };

  // A product image URL from a product page (B7).
  const productHtml = await (
    await fetch(`${shop.origin}/product/${dataset.productIds[0]}`, { signal: AbortSignal.timeout(15_000) })
  ).text();
  const imagePath = /\/uploads\/[^"'\s?,]+\.webp/.exec(productHtml)?.[0];
  if (!imagePath) throw new Error("no /uploads/….webp image on the product page");

  const benches = {};
  const crashes = [];
  // A shop that died under load is reported and started again on the same database, so the
  // remaining benchmarks still run.
  const ensureShop = async (before) => {
    if (!exited(shop.child)) return;
    crashes.push({
      noticed_before: before,
      phase: shop.log.phase,
      exit_code: shop.child.exitCode,
      signal: shop.child.signalCode,
      stderr: shop.log.stderr.slice(-30),
    });
    console.error(`  the shop exited (code ${shop.child.exitCode}) during ${shop.log.phase}; restarting it`);
    const again = await startShop(dirs);
    Object.assign(shop, { child: again.child, origin: again.origin, log: again.log });
    ctx.shopPid = again.child.pid;
    ctx.log = again.log;
  };
  const GET = (pathName) => ({ url: `${shop.origin}${pathName}`, headers: BROWSER_HEADERS });
  console.info("\nMeasuring …");
  benches.B0 = {
    label: "raw node:http page",
    ...(await measure({ ...ctx, shopPid: null, log: null }, "B0", { url: `${raw.origin}/`, headers: BROWSER_HEADERS })),
  };
  await stopChild(raw.child);
  await ensureShop("B1");
  benches.B1 = { label: "/healthz", ...(await measure(ctx, "B1", GET("/healthz"))) };
  // The pages a crowd reads: HOT_LISTINGS listing URLs and HOT_PRODUCTS product pages, each
  // visited once first, so the anonymous rows measure a warm page cache ("cache off" rows: cold).
  const categories = categoryPaths(dataset.categorySlugs).slice(0, HOT_LISTINGS);
  const productPaths = shuffled(dataset.productIds)
    .slice(0, HOT_PRODUCTS)
    .map((id) => `/product/${id}`);
  const page_bytes = await pageBytes(shop.origin, categories[0], productPaths[0]);
  if (wanted("B2")) {
    await ensureShop("B2");
    await visitOnce(shop.origin, categories);
    benches.B2 = {
      label: `category listings (${HOT_LISTINGS} URLs, cache warm)`,
      ...(await measure(ctx, "B2", { url: shop.origin, headers: BROWSER_HEADERS, requests: rotating(categories) })),
    };
  }
  if (wanted("B3")) {
    await ensureShop("B3");
    await visitOnce(shop.origin, productPaths);
    benches.B3 = {
      label: `product pages (${HOT_PRODUCTS} products, cache warm)`,
      ...(await measure(ctx, "B3", { url: shop.origin, headers: BROWSER_HEADERS, requests: rotating(productPaths) })),
    };
  }
  await ensureShop("B2S");
  await pageBenches(benches, shop, {
    prefix: "B",
    label: "",
    categories,
    products: productPaths,
    anonymous: false,
    signedIn: true,
  });
  const searchPaths = SEARCHES.map((q) => `/search?q=${encodeURIComponent(q)}`);
  if (wanted("B4")) {
    await ensureShop("B4");
    benches.B4 = {
      label: "search (en/zh)",
      ...(await measure(ctx, "B4", { url: shop.origin, headers: BROWSER_HEADERS, requests: rotating(searchPaths) })),
    };
  }
  if (wanted("B5")) {
    await ensureShop("B5");
    benches.B5 = {
      label: "add to cart POST",
      ...(await benchAddToCart(ctx, shop, dataset, `file:${dirs.database}`)),
    };
  }
  if (wanted("B6")) {
    await ensureShop("B6");
    benches.B6 = {
      label: `${SHOPPERS} concurrent payments`,
      ...(await benchCheckouts(ctx, shop, dataset, `file:${dirs.database}`)),
    };
  }
  if (wanted("B7")) {
    await ensureShop("B7");
    benches.B7 = { label: "product image (webp)", ...(await measure(ctx, "B7", GET(imagePath))) };
  }
  await ensureShop("after");
  ctx.phase("after");
  await sleep(500);
  const rssAfter = rssMb(ctx.shopPid);

  // The page cache cold: a second process on the same files with PAGE_CACHE_MB=0.
  const extraShops = {};
  await stopChild(shop.child);
  if (wanted("B2C") || wanted("B3C")) {
    const cold = await startShop(dirs, { PAGE_CACHE_MB: "0" });
    await pageBenches(benches, cold, {
      prefix: "B",
      suffix: "C",
      label: " · cache off",
      categories,
      products: productPaths,
    });
    await stopChild(cold.child);
    extraShops.cache_off = { cold_start_ms: Math.round(cold.coldStartMs), log_statuses_by_phase: cold.log.statuses };
  }
  // npm start's default: one process per core.
  const cores = await startShop(dirs, { WEB_CONCURRENCY: "" });
  const processes = shopPids(cores.child.pid).length - 1;
  const onCores = ` · ${processes} processes (default)`;
  await pageBenches(benches, cores, {
    prefix: "B",
    suffix: "D",
    label: onCores,
    categories,
    products: productPaths,
    signedIn: true,
  });
  // B6 again from the same scarce stock, on every core.
  const restock = new SQLite(dirs.database);
  restock
    .prepare("update product_variants set stock = ? where product_id = ? and color = ?")
    .run(dataset.scarceProduct.stock, dataset.scarceProduct.id, dataset.scarceProduct.color);
  restock.close();
  if (wanted("B6D")) {
    benches.B6D = {
      label: `${SHOPPERS} concurrent payments${onCores}`,
      ...(await benchCheckouts(shopContext(cores), cores, dataset, `file:${dirs.database}`, "B6D")),
    };
  }
  await stopChild(cores.child);
  extraShops.default_concurrency = {
    processes,
    cold_start_ms: Math.round(cores.coldStartMs),
    log_statuses_by_phase: cores.log.statuses,
    server_errors: cores.log.serverErrors,
    stderr_tail: cores.log.stderr.slice(-20),
  };

  const postgres =
    process.env.BENCH_POSTGRES === "0" || (ONLY.size > 0 && ![...ONLY].some((id) => id.startsWith("P")))
      ? null
      : await benchPostgres({
          benches,
          dirs,
          dataset,
          searchPaths,
          productPaths,
          categories,
          stopSqliteShop: () => stopChild(shop.child),
        });

  const underLoad = Object.values(benches)
    .map((r) => r.shop_rss_max_mb)
    .filter((mb) => typeof mb === "number");
  const report = {
    started_at: startedAt.toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? null,
      memory_gb: Number((os.totalmem() / 2 ** 30).toFixed(1)),
      node: process.version,
      loadavg_at_start: os.loadavg().map((n) => Number(n.toFixed(2))),
      note: "autocannon, the raw server and the shop share this machine's cores (and with any other work running)",
    },
    settings: { connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP, build_dir: BUILD_DIR },
    dataset: { counts: dataset.counts, seed_ms: dataset.seedMs, image: imagePath },
    shop: {
      cold_start_ms: Math.round(shop.coldStartMs),
      rss_idle_mb: rssIdle,
      rss_max_under_load_mb: underLoad.length ? Math.max(...underLoad) : null,
      rss_after_mb: rssAfter,
      log_statuses_by_phase: shop.log.statuses,
      log_time_by_phase: Object.fromEntries(
        Object.keys(shop.log.serverMs).map((phase) => [phase, serverTimes(ctx, phase)]),
      ),
      crashes,
      server_errors: shop.log.serverErrors,
      stderr_tail: shop.log.stderr.slice(-40),
    },
    extra_shops: extraShops,
    page_bytes,
    postgres,
    benches,
  };
  report.targets = judge(report);
  report.targets.push({
    target: "the shop stays up under load",
    pass: crashes.length === 0,
    measured: crashes.length
      ? crashes
          .map((c) => `exited during ${c.phase}: ${c.stderr.filter((l) => /Error/.test(l)).join(" | ")}`)
          .join("; ")
      : "no crash",
  });
  printReport(report);
  if (shop.log.serverErrors.length || shop.log.stderr.length) {
    console.info("\nShop log (5xx answers and error output):");
    for (const line of [...shop.log.serverErrors, ...shop.log.stderr.slice(-20)]) console.info(`  ${line}`);
  }
  const resultsDir = path.join(ROOT, "bench", "results");
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.info(`\nWritten to ${path.relative(ROOT, file)}`);
}

try {
  await main();
  await cleanup();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  if (error instanceof Error && error.cause) console.error("cause:", error.cause);
  if (runningShop) {
    const { child, log } = runningShop;
    console.error(
      `\nThe shop (pid ${child.pid}) ${exited(child) ? `had exited (code ${child.exitCode}, signal ${child.signalCode})` : "was still running"}; ` +
        `phase ${log.phase}; statuses ${JSON.stringify(log.statuses)}`,
    );
    for (const line of [...log.serverErrors, ...log.stderr.slice(-60)]) console.error(`  ${line}`);
  }
  await cleanup();
  process.exitCode = 1;
}
