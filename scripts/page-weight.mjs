#!/usr/bin/env node
// Page weight check (part of `npm test`, after the build): the gzip size of the JavaScript and
// CSS each page type loads on its first visit, read from React Router's build manifest.
// Deterministic, not timed: it fails when a page goes over its budget, or when a storefront
// page would load any admin code, Zod, i18next or Conform (docs/decisions/015 and 045: storefront
// forms validate on the server, with our own small `useServerForm`, and pages translate with our
// own small runtime).
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";

const KB = 1024;
const STOREFRONT_JS = 130 * KB;
const CART_JS = 150 * KB;
const CSS = 25 * KB;

/** Each page type: the chain of route ids a first visit loads, and its JavaScript budget. */
const PAGES = [
  ["home", ["root", "routes/store/layout", "routes/store/home"], STOREFRONT_JS],
  ["category", ["root", "routes/store/layout", "routes/store/category"], STOREFRONT_JS],
  ["product", ["root", "routes/store/layout", "routes/store/product"], STOREFRONT_JS],
  ["search", ["root", "routes/store/layout", "routes/store/search"], STOREFRONT_JS],
  ["blog post", ["root", "routes/store/layout", "routes/store/blog-post"], STOREFRONT_JS],
  ["login", ["root", "routes/store/layout", "routes/store/login"], STOREFRONT_JS],
  ["account orders", ["root", "routes/store/layout", "routes/store/account-orders"], STOREFRONT_JS],
  ["account order", ["root", "routes/store/layout", "routes/store/account-order"], STOREFRONT_JS],
  ["account", ["root", "routes/store/layout", "routes/store/account"], STOREFRONT_JS],
  ["forgot password", ["root", "routes/store/layout", "routes/store/forgot-password"], STOREFRONT_JS],
  ["reset password", ["root", "routes/store/layout", "routes/store/reset-password"], STOREFRONT_JS],
  ["join", ["root", "routes/store/layout", "routes/store/join"], STOREFRONT_JS],
  ["cart", ["root", "routes/store/layout", "routes/store/cart"], CART_JS],
  ["checkout", ["root", "routes/store/layout", "routes/store/checkout"], CART_JS],
  ["payment", ["root", "routes/store/layout", "routes/store/payment"], CART_JS],
];
/**
 * Libraries the storefront must not ship, each known by a string its own code keeps through
 * minification (the minified chunks are named after whatever module Rollup picks, so names
 * cannot be relied on). Conform stays in the admin's browser code (its forms validate there too).
 */
const NOT_ON_THE_STOREFRONT = [
  ["zod", "$ZodType"],
  ["i18next", "i18next:"],
  ["Conform", "__intent__"],
];

const ADMIN_PAGES = [
  ["admin dashboard", ["root", "routes/admin/layout", "routes/admin/dashboard"]],
  ["admin product form", ["root", "routes/admin/layout", "admin-product-new"]],
  ["admin order", ["root", "routes/admin/layout", "routes/admin/order"]],
];

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build", "client");
const assets = path.join(buildDir, "assets");
const manifestFile = fs.readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
if (!manifestFile) {
  console.error(`No React Router manifest in ${assets}: run the build first.`);
  process.exit(2);
}
const sandbox = { window: {} };
vm.runInNewContext(fs.readFileSync(path.join(assets, manifestFile), "utf8"), sandbox);
const manifest = sandbox.window.__reactRouterManifest;

const sources = new Map();
function source(url) {
  let text = sources.get(url);
  if (text === undefined) {
    text = fs.readFileSync(path.join(buildDir, url), "utf8");
    sources.set(url, text);
  }
  return text;
}

const gzipSizes = new Map();
function gzipSize(url) {
  let size = gzipSizes.get(url);
  if (size === undefined) {
    size = zlib.gzipSync(source(url), { level: 6 }).length;
    gzipSizes.set(url, size);
  }
  return size;
}

function load(chain) {
  const js = new Set([manifest.entry.module, ...manifest.entry.imports]);
  const css = new Set(manifest.entry.css ?? []);
  for (const id of chain) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`route ${id} is not in the build manifest`);
    js.add(route.module);
    for (const url of route.imports ?? []) js.add(url);
    for (const url of route.css ?? []) css.add(url);
  }
  const sum = (urls) => [...urls].reduce((total, url) => total + gzipSize(url), 0);
  return { js, jsBytes: sum(js), cssBytes: sum(css) };
}

const adminOnly = new Set();
for (const [id, route] of Object.entries(manifest.routes)) {
  if (id.startsWith("routes/admin/") || id.startsWith("admin-")) adminOnly.add(route.module);
}

const failures = [];
const rows = [];
for (const [name, chain, budget] of PAGES) {
  const { js, jsBytes, cssBytes } = load(chain);
  rows.push({
    page: name,
    "JS gzip KB": (jsBytes / KB).toFixed(1),
    "JS budget": budget / KB,
    "CSS gzip KB": (cssBytes / KB).toFixed(1),
  });
  if (jsBytes > budget)
    failures.push(`${name}: ${(jsBytes / KB).toFixed(1)} KB of JavaScript (budget ${budget / KB} KB)`);
  if (cssBytes > CSS) failures.push(`${name}: ${(cssBytes / KB).toFixed(1)} KB of CSS (budget ${CSS / KB} KB)`);
  const leaked = [...js].filter((url) => adminOnly.has(url));
  if (leaked.length > 0) failures.push(`${name} loads admin code: ${leaked.join(", ")}`);
  for (const [library, marker] of NOT_ON_THE_STOREFRONT) {
    const carriers = [...js].filter((url) => url.endsWith(".js") && source(url).includes(marker));
    if (carriers.length > 0) failures.push(`${name} loads ${library}: ${carriers.join(", ")}`);
  }
}
for (const [name, chain] of ADMIN_PAGES) {
  const { jsBytes, cssBytes } = load(chain);
  rows.push({
    page: name,
    "JS gzip KB": (jsBytes / KB).toFixed(1),
    "JS budget": "-",
    "CSS gzip KB": (cssBytes / KB).toFixed(1),
  });
}
console.table(rows);
if (failures.length > 0) {
  console.error(`Page weight over budget:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.info(
  "Page weight: every storefront page is within its budget and loads no admin code, Zod, i18next or Conform.",
);
