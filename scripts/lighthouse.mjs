#!/usr/bin/env node
// Lighthouse on the storefront (npm run lighthouse, issue 8 item 3): performance, accessibility,
// best practices and SEO with Lighthouse's default (mobile) settings, for the home page, a
// category, a product, the cart (with one item in it) and checkout. Prints the scores and the
// audits that fail on each page with the elements or resources at fault, and writes the summary
// to bench/results/lighthouse-<timestamp>.json.
//
//   npm run lighthouse                                  starts the production build itself
//   npm run lighthouse -- --url http://127.0.0.1:3000   against a server already running
//
// The build is BUILD_DIR (default `build`; `node bin/shop.mjs start` builds it when missing).
// The browser is Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH), headless. Scores
// vary from run to run (Lighthouse simulates a slow phone on whatever CPU this is): they are a
// report, not a test.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
// The same Chromium and flags as every browser test (Node runs the TypeScript file as is).
import { chromiumLaunchOptions } from "../tests/chromium.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const CHROMIUM = chromiumLaunchOptions.executablePath;
/** How many failing audits, and how many offending items of each, the report names per page. */
const TOP_AUDITS = 8;
const TOP_ITEMS = 4;

function argument(name) {
  const index = process.argv.indexOf(name);
  if (index !== -1) return process.argv[index + 1];
  const inline = process.argv.find((arg) => arg.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base, child, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${base}/healthz did not answer within ${timeoutMs / 1000} s`);
}

/** Starts `node bin/shop.mjs start` on a fresh data folder (migrated and seeded with the demo catalogue). */
async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-lighthouse-"));
  const port = await freePort();
  // The flags of `npm start` (package.json), so the page is measured as it is served.
  const child = spawn(process.execPath, ["--max-semi-space-size=8", path.join(root, "bin/shop.mjs"), "start"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${path.join(dataDir, "shop.db")}`,
      UPLOADS_DIR: path.join(dataDir, "uploads"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = [];
  const keep = (chunk) => {
    log.push(chunk.toString());
    if (log.length > 200) log.shift();
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(base, child);
  } catch (error) {
    child.kill("SIGTERM");
    console.error(log.join(""));
    throw error;
  }
  return {
    base,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        process.kill(child.pid, "SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) process.kill(child.pid, "SIGKILL");
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The first product linked from the rifles category, and a colour of it that is in stock. */
async function demoProduct(base) {
  const html = await (await fetch(`${base}/category/rifles`)).text();
  const id = /href="\/product\/(\d+)"/.exec(html)?.[1];
  if (!id) throw new Error("no product link on /category/rifles");
  const page = await (await fetch(`${base}/product/${id}`)).text();
  // A colour radio that is not disabled, else the hidden default colour.
  const colors = [...page.matchAll(/<input[^>]*name="color"[^>]*>/g)].map((match) => match[0]);
  const usable = colors.find((tag) => !/\bdisabled\b/.test(tag)) ?? colors[0];
  const color = usable ? (/value="([^"]*)"/.exec(usable)?.[1] ?? "Default") : "Default";
  return { id, color: color.replaceAll("&amp;", "&") };
}

/**
 * Puts one item in a new cart the way a browser without JavaScript does (a same-origin form
 * POST to /cart) and returns the session cookie that names the cart. Lighthouse sends it with
 * every request of the cart and checkout runs (extraHeaders), so those pages are not empty.
 */
async function cartCookie(base, product) {
  const body = new URLSearchParams({
    intent: "add",
    productId: product.id,
    color: product.color,
    quantity: "1",
    redirectTo: `/product/${product.id}`,
  });
  const response = await fetch(`${base}/cart`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
  });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  if (cookies.length === 0) throw new Error(`adding to the cart set no cookie (status ${response.status})`);
  const cookie = cookies.join("; ");
  const cart = await (await fetch(`${base}/cart`, { headers: { Cookie: cookie } })).text();
  if (!cart.includes(`/product/${product.id}`)) throw new Error("the seeded cart does not show the product");
  return cookie;
}

/**
 * What an audit points at, read from its details whatever their shape (tables, lists, insight
 * checklists, dependency trees): elements (selector and HTML), resources (URL and saving),
 * source locations, failed checks and time per group.
 */
function offenders(audit) {
  const found = [];
  const add = (text) => {
    if (text && !found.includes(text)) found.push(text);
  };
  const visit = (value, depth = 0) => {
    if (!value || typeof value !== "object" || depth > 12 || found.length >= TOP_ITEMS) return;
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry, depth + 1);
      return;
    }
    if (value.type === "node" && (value.selector || value.snippet)) {
      add(`${value.selector ?? ""} ${(value.snippet ?? "").replace(/\s+/g, " ").slice(0, 160)}`.trim());
      return;
    }
    if (value.type === "source-location" && value.url) {
      add(`${value.url}:${value.line ?? ""}:${value.column ?? ""}`);
      return;
    }
    if (typeof value.url === "string" && /^https?:/.test(value.url)) {
      const ms = value.wastedMs ?? value.navStartToEndTime;
      const saving = ms
        ? ` (${Math.round(ms)} ms)`
        : value.wastedBytes
          ? ` (${Math.round(value.wastedBytes / 1024)} KiB)`
          : "";
      add(`${value.url}${saving}`);
    }
    if (typeof value.label === "string" && value.value === false) add(`check failed: ${value.label}`);
    if (typeof value.groupLabel === "string" && typeof value.duration === "number") {
      add(`${value.groupLabel}: ${Math.round(value.duration)} ms`);
      return;
    }
    if (typeof value.issueType === "string") add(`issue: ${value.issueType}`);
    for (const [key, entry] of Object.entries(value))
      if (key !== "headings" && key !== "debugData") visit(entry, depth + 1);
  };
  visit(audit.details);
  return found.slice(0, TOP_ITEMS);
}

/** The audits that lose points on this page, heaviest first (by weight in their category). */
function failingAudits(lhr) {
  const failing = [];
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    if (!category) continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 0.9) continue;
      if (audit.scoreDisplayMode === "notApplicable" || audit.scoreDisplayMode === "manual") continue;
      if (audit.scoreDisplayMode === "informative") continue;
      failing.push({
        category: id,
        id: ref.id,
        title: audit.title,
        score: audit.score,
        weight: ref.weight,
        displayValue: audit.displayValue ?? null,
        items: offenders(audit),
      });
    }
  }
  // Insights and diagnostics (weight 0) that still flag something, after the weighted audits.
  return failing.sort((a, b) => b.weight - a.weight || a.score - b.score);
}

const METRICS = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "cumulative-layout-shift",
  "speed-index",
];

async function main() {
  const given = argument("--url");
  const server = given ? null : await startServer();
  const base = (given ?? server.base).replace(/\/+$/, "");
  let chrome;
  try {
    if (given) await waitForHealth(base, null, 10_000);
    const product = await demoProduct(base);
    const cookie = await cartCookie(base, product);
    const pages = [
      { name: "home", path: "/" },
      { name: "category", path: "/category/rifles" },
      { name: "product", path: `/product/${product.id}` },
      { name: "cart (1 item)", path: "/cart", cookie },
      { name: "checkout (1 item)", path: "/checkout", cookie },
    ];

    if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
    chrome = await launch({
      chromePath: CHROMIUM,
      port: await freePort(),
      chromeFlags: ["--headless=new", ...chromiumLaunchOptions.args],
      logLevel: "silent",
    });

    const results = [];
    for (const page of pages) {
      const url = `${base}${page.path}`;
      console.info(`Lighthouse: ${page.name} (${url}) …`);
      const run = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: CATEGORIES,
        ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
      });
      if (!run) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = run;
      if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      results.push({
        page: page.name,
        url: page.path,
        finalUrl: lhr.finalDisplayedUrl,
        scores: Object.fromEntries(
          CATEGORIES.map((id) => [id, lhr.categories[id] ? Math.round(lhr.categories[id].score * 100) : null]),
        ),
        metrics: Object.fromEntries(METRICS.map((id) => [id, lhr.audits[id]?.displayValue ?? null])),
        failing: failingAudits(lhr),
        warnings: lhr.runWarnings,
      });
    }

    console.info("\nScores (0-100, mobile):");
    console.table(
      Object.fromEntries(
        results.map((r) => [
          r.page,
          {
            performance: r.scores.performance,
            accessibility: r.scores.accessibility,
            "best-practices": r.scores["best-practices"],
            seo: r.scores.seo,
            LCP: r.metrics["largest-contentful-paint"],
            TBT: r.metrics["total-blocking-time"],
            CLS: r.metrics["cumulative-layout-shift"],
          },
        ]),
      ),
    );
    for (const r of results) {
      console.info(`\n■ ${r.page} ${r.url}${r.finalUrl && !r.finalUrl.endsWith(r.url) ? ` → ${r.finalUrl}` : ""}`);
      for (const warning of r.warnings) console.info(`  warning: ${warning}`);
      if (r.failing.length === 0) console.info("  no failing audits");
      for (const audit of r.failing.slice(0, TOP_AUDITS)) {
        console.info(
          `  [${audit.category}] ${audit.id} (score ${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ""}): ${audit.title}`,
        );
        for (const item of audit.items) console.info(`      ${item}`);
      }
    }

    const out = path.join(root, "bench/results", `lighthouse-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          lighthouse: (await import("lighthouse/package.json", { with: { type: "json" } })).default.version,
          chromium: CHROMIUM,
          formFactor: "mobile",
          base,
          pages: results,
        },
        null,
        2,
      )}\n`,
    );
    console.info(`\nWrote ${path.relative(root, out)}`);
  } finally {
    if (chrome) await chrome.kill();
    if (server) await server.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
