import { type APIRequestContext, type APIResponse, expect, type PlaywrightWorkerArgs, test } from "@playwright/test";
import { uniqueEmail, uniquePassword } from "../e2e/fixtures";
import {
  type Account,
  changedTables,
  customerSignIn,
  fingerprint,
  type MatrixIds,
  type Parties,
  ROUTE_MATRIX,
  shopWithParties,
  userId,
} from "./route-matrix";
import { FULL, runs, type Shop, startShop } from "./shop";

/**
 * Issue 9: forged requests and stolen sessions. Cross-site writes are refused before any action
 * runs, a session cookie dies with logout, a password change and a block, no GET changes data,
 * no redirect leaves the shop, and the session cookie carries its flags.
 */

let shop: Shop;
let parties: Parties;
let ids: MatrixIds;
let clients: Parties["clients"];
let accounts: Parties["accounts"];

shopWithParties("forgery", (started, prepared) => {
  shop = started;
  parties = prepared;
  ({ ids, clients, accounts } = prepared);
});

/** Requests a browser would send from another site; the middleware must refuse every one. */
const CROSS_SITE: { name: string; headers: Record<string, string> }[] = [
  { name: "a foreign Origin", headers: { Origin: "https://evil.example" } },
  { name: "Origin: null", headers: { Origin: "null" } },
  { name: "no Origin, Sec-Fetch-Site: cross-site", headers: { "Sec-Fetch-Site": "cross-site" } },
  { name: "a look-alike Origin", headers: { Origin: "http://127.0.0.1.evil.example" } },
];

test("cross-site writes to every action are refused (403) and change nothing", async () => {
  // Bodies that would change the database if they got through, sent by the people who could send them.
  const forged: Record<string, { as: keyof Parties["clients"]; body: Record<string, string> }> = {
    "/cart": {
      as: "customerA",
      body: { intent: "add", productId: String(parties.stocked.productId), color: parties.stocked.color },
    },
    "/checkout": {
      as: "customerA",
      body: { firstName: "M", lastName: "M", email: "m@example.com", address: "x", city: "x", country: "x" },
    },
    "/login": { as: "signedOut", body: { intent: "signup", email: uniqueEmail("forged"), password: uniquePassword() } },
    "/forgot-password": { as: "signedOut", body: { email: accounts.customerA.email } },
    "/account": {
      as: "customerA",
      body: { current: accounts.customerA.password, password: "forged-password-123", confirm: "forged-password-123" },
    },
    "/admin/login": { as: "signedOut", body: { intent: "login", ...accounts.admin } },
    "/logout": { as: "customerB", body: {} },
    "/resources/language": { as: "customerA", body: { language: "zh", redirectTo: "/" } },
    "/resources/currency": { as: "customerA", body: { currency: "USD", redirectTo: "/" } },
  };
  const before = fingerprint(shop.files);
  const problems: string[] = [];
  let sent = 0;
  for (const row of ROUTE_MATRIX.filter((candidate) => candidate.post)) {
    const attack = forged[row.path] ?? { as: row.adminOnly ? "admin" : "customerA", body: row.body?.(ids) ?? {} };
    const url = row.url(ids);
    for (const variant of CROSS_SITE) {
      for (const target of [url, `${url.replace(/\/$/, "")}.data`]) {
        const response = await clients[attack.as].post(target, {
          form: attack.body,
          headers: variant.headers,
          maxRedirects: 0,
        });
        sent++;
        if (response.status() !== 403) problems.push(`POST ${target} with ${variant.name}: ${response.status()}`);
      }
    }
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const response = await clients[attack.as].fetch(url, {
        method,
        form: attack.body,
        headers: CROSS_SITE[0]?.headers,
        maxRedirects: 0,
      });
      sent++;
      if (response.status() !== 403) problems.push(`${method} ${url} with a foreign Origin: ${response.status()}`);
    }
  }
  expect(problems, `${problems.length} of ${sent} forged writes got through`).toEqual([]);
  expect(changedTables(before, fingerprint(shop.files)), "tables changed by refused cross-site writes").toEqual([]);
  // Still signed in: the forged logout did not end B's session.
  expect((await clients.customerB.get("/account", { maxRedirects: 0 })).status()).toBe(200);

  // The same write from the shop's own pages goes through (the refusal above is the origin check).
  const own = await clients.customerA.post("/cart", {
    form: forged["/cart"]?.body ?? {},
    headers: { Origin: shop.baseURL, "Sec-Fetch-Site": "same-origin" },
    maxRedirects: 0,
  });
  expect(own.status()).toBe(302);
  expect(changedTables(before, fingerprint(shop.files))).toContain("cart_lines");
});

/* ------------------------------------------------------------------------------------------ */

/** The session cookie a client holds now (name=value), for replaying it from elsewhere. */
async function sessionCookie(client: APIRequestContext): Promise<string> {
  const cookie = (await client.storageState()).cookies.find((candidate) => candidate.name === "sid");
  if (!cookie) throw new Error("no session cookie");
  return `${cookie.name}=${cookie.value}`;
}

/** Whether a replayed cookie is someone: /account answers 200 to a user, a sign-in redirect to anyone else. */
type Playwright = PlaywrightWorkerArgs["playwright"];

async function replayIsSignedIn(playwright: Playwright, cookie: string): Promise<boolean> {
  const replay = await playwright.request.newContext({ baseURL: shop.baseURL, extraHTTPHeaders: { Cookie: cookie } });
  try {
    const response = await replay.get("/account", { maxRedirects: 0 });
    if (response.status() === 200) return true;
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/login?redirectTo=%2Faccount");
    return false;
  } finally {
    await replay.dispose();
  }
}

async function signedInClient(playwright: Playwright, account: Account) {
  const client = await playwright.request.newContext({ baseURL: shop.baseURL });
  await customerSignIn(client, account);
  return client;
}

async function newCustomer(playwright: Playwright): Promise<Account> {
  const account = { email: uniqueEmail("replay"), password: uniquePassword() };
  const client = await playwright.request.newContext({ baseURL: shop.baseURL });
  const response = await client.post("/login", {
    form: { intent: "signup", ...account, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await client.dispose();
  return account;
}

test("a session cookie replayed after logout, a password change or a block is anonymous", async ({ playwright }) => {
  // Logout.
  const account = await newCustomer(playwright);
  const leaving = await signedInClient(playwright, account);
  const beforeLogout = await sessionCookie(leaving);
  expect.soft(await replayIsSignedIn(playwright, beforeLogout), "the cookie works before logout").toBe(true);
  expect((await leaving.post("/logout", { form: {}, maxRedirects: 0 })).status()).toBe(302);
  expect.soft(await replayIsSignedIn(playwright, beforeLogout), "replayed after logout").toBe(false);
  await leaving.dispose();

  // Password change from /account: the session that changed it and every other one.
  const changer = await newCustomer(playwright);
  const here = await signedInClient(playwright, changer);
  const elsewhere = await signedInClient(playwright, changer);
  const [hereCookie, elsewhereCookie] = [await sessionCookie(here), await sessionCookie(elsewhere)];
  expect.soft(await replayIsSignedIn(playwright, elsewhereCookie), "the other session works before").toBe(true);
  const newPassword = uniquePassword();
  const changed = await here.post("/account", {
    form: { current: changer.password, password: newPassword, confirm: newPassword },
    maxRedirects: 0,
  });
  expect(changed.status(), "password change").toBe(302);
  expect.soft(await replayIsSignedIn(playwright, hereCookie), "the changing session's old cookie").toBe(false);
  expect.soft(await replayIsSignedIn(playwright, elsewhereCookie), "another session of the account").toBe(false);
  // The one who changed it stays signed in, under a new cookie.
  expect.soft(await replayIsSignedIn(playwright, await sessionCookie(here)), "the new cookie").toBe(true);
  await here.dispose();
  await elsewhere.dispose();

  // Blocked by an admin on the customer page.
  const blocked = await newCustomer(playwright);
  const victim = await signedInClient(playwright, blocked);
  const victimCookie = await sessionCookie(victim);
  const block = await clients.admin.post(`/admin/customers/${userId(shop.files, blocked.email)}`, {
    form: { intent: "block" },
    maxRedirects: 0,
  });
  expect(block.status(), "admin blocks the customer").toBe(302);
  expect.soft(await replayIsSignedIn(playwright, victimCookie), "replayed after the block").toBe(false);
  expect
    .soft((await victim.get("/account", { maxRedirects: 0 })).status(), "the blocked customer's own client")
    .toBe(302);
  await victim.dispose();
});

/* ------------------------------------------------------------------------------------------ */

/**
 * What a GET may write: page-view analytics (recorded for every storefront document) and the
 * session's last-seen time (refreshed at most every few minutes). Nothing else, and no other
 * column of the session row.
 */
const WRITTEN_BY_GET = [
  "page_views",
  "page_view_days",
  "page_view_paths",
  "page_view_sessions",
  "page_view_day_sessions",
  "sessions.last_seen_at",
] as const;

/** Same-origin links of an HTML page, as paths with their query. */
function linksOf(html: string, pageUrl: string): string[] {
  const base = new URL(pageUrl);
  const links: string[] = [];
  for (const match of html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)) {
    const href = (match[1] ?? "").replaceAll("&amp;", "&");
    let url: URL;
    try {
      url = new URL(href, base);
    } catch {
      continue;
    }
    if (url.origin !== base.origin) continue;
    links.push(`${url.pathname}${url.search}`);
  }
  return links;
}

/** Never followed: signing out, and static files. */
const NOT_FOLLOWED = /^\/(logout|assets\/|uploads\/)/;

/**
 * Breadth-first over same-origin links from `start`, at most `limit` pages and a couple of
 * URLs for each path and set of query names (pagination and sort make endless variants).
 */
async function crawl(client: APIRequestContext, start: string[], limit: number): Promise<string[]> {
  const seen = new Set<string>();
  const perShape = new Map<string, number>();
  const queue = [...start];
  const visited: string[] = [];
  while (queue.length > 0 && visited.length < limit) {
    const next = queue.shift() as string;
    if (seen.has(next) || NOT_FOLLOWED.test(next)) continue;
    seen.add(next);
    const url = new URL(next, shop.baseURL);
    const shape = `${url.pathname.replace(/\/[0-9a-f-]{36}|\/\d+/g, "/:id")}?${[...url.searchParams.keys()].sort().join("&")}`;
    const count = perShape.get(shape) ?? 0;
    if (count >= runs(2, 4)) continue;
    perShape.set(shape, count + 1);
    const response = await client.get(next, { maxRedirects: 0 });
    visited.push(`${next} ${response.status()}`);
    expect(response.status(), `GET ${next}`).toBeLessThan(500);
    if ((response.headers()["content-type"] ?? "").startsWith("text/html")) {
      queue.push(...linksOf(await response.text(), url.href));
    }
  }
  return visited;
}

test("no GET changes data: a crawl of every link as a customer and as an admin", async () => {
  // Flash messages left by earlier tests are shown (and so cleared) before the fingerprint.
  for (const client of [clients.customerA, clients.admin]) await client.get("/");
  const before = fingerprint(shop.files, WRITTEN_BY_GET);
  const limit = runs(60, 300);
  const customer = await crawl(clients.customerA, ["/", "/account", "/account/orders", "/blog", "/search?q=a"], limit);
  const admin = await crawl(clients.admin, ["/admin", "/admin/orders", "/admin/customers", "/admin/settings"], limit);
  await test.info().attach("crawled pages", {
    body: ["as the customer:", ...customer, "", "as the admin:", ...admin].join("\n"),
    contentType: "text/plain",
  });
  expect(customer.length, "pages the customer crawl saw").toBeGreaterThan(Math.min(limit, 30) - 1);
  expect(admin.length, "pages the admin crawl saw").toBeGreaterThan(Math.min(limit, 30) - 1);
  expect(admin.some((line) => line.startsWith(`/admin/orders/${ids.orderA}`))).toBe(true);
  expect(changedTables(before, fingerprint(shop.files, WRITTEN_BY_GET)), "tables changed by GETs").toEqual([]);
});

/* ------------------------------------------------------------------------------------------ */

/** Targets that would take the shopper off the shop (some only in some browsers). */
const EVIL = [
  "//evil.example",
  "///evil.example",
  "https://evil.example",
  "http://evil.example/path",
  "https:evil.example",
  "https:/evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "/\\/evil.example",
  "\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  " //evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/./\\evil.example",
  "//evil.example@127.0.0.1",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "%2F%2Fevil.example",
  "/%2F%2Fevil.example",
  "/%5Cevil.example",
  "%5C%5Cevil.example",
  "/%09/evil.example",
  "/\r\nLocation: https://evil.example",
  "/%0d%0aLocation:%20https://evil.example",
  "/%E5%98%8D%E5%98%8ALocation:%20https://evil.example",
];

/** Where a Location sends a browser: it must be this shop, and the header plain. */
function offShop(location: string | undefined): string | null {
  if (location === undefined) return "no Location";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for
  if (/[\u0000-\u001f\u007f\\\s]/.test(location)) return `odd characters in ${JSON.stringify(location)}`;
  const target = new URL(location, shop.baseURL);
  if (target.origin !== new URL(shop.baseURL).origin) return `leaves the shop: ${location} → ${target.href}`;
  return null;
}

test("no redirect leaves the shop: redirectTo, returnTo and to of every route that reads one", async ({
  playwright,
}) => {
  const problems: string[] = [];
  const check = (what: string, location: string | undefined) => {
    const problem = offShop(location);
    if (problem) problems.push(`${what}: ${problem}`);
  };
  const anonymous = await playwright.request.newContext({ baseURL: shop.baseURL });
  const signer = await playwright.request.newContext({ baseURL: shop.baseURL });
  try {
    for (const [index, evil] of EVIL.entries()) {
      const label = JSON.stringify(evil);
      // The sign-in page keeps redirectTo in its form (and the header's forms their own): every value must be safe.
      const page = await anonymous.get(`/login?redirectTo=${encodeURIComponent(evil)}`);
      for (const kept of (await page.text()).matchAll(/name="redirectTo" value="([^"]*)"/g)) {
        check(`GET /login?redirectTo=${label} (a form on it)`, kept[1]?.replaceAll("&amp;", "&"));
      }
      const logout = await anonymous.post("/logout", { form: { to: evil }, maxRedirects: 0 });
      check(`logout with to=${label}`, logout.headers().location);

      // Signing in and up hash a password each time: the fast level tries every third target.
      if (FULL || index % 3 === 0) {
        const signIn = await signer.post("/login", {
          form: { intent: "login", ...accounts.customerB, redirectTo: evil },
          maxRedirects: 0,
        });
        check(`sign-in with redirectTo=${label}`, signIn.headers().location);
        const newcomer = await playwright.request.newContext({ baseURL: shop.baseURL });
        const signUp = await newcomer.post("/login", {
          form: { intent: "signup", email: uniqueEmail("redirect"), password: uniquePassword(), redirectTo: evil },
          maxRedirects: 0,
        });
        await newcomer.dispose();
        check(`sign-up with redirectTo=${label}`, signUp.headers().location);
      }

      const cart = await clients.customerB.post("/cart", {
        form: {
          intent: "add",
          productId: String(parties.stocked.productId),
          color: parties.stocked.color,
          redirectTo: evil,
        },
        maxRedirects: 0,
      });
      check(`cart add with redirectTo=${label}`, cart.headers().location);
      for (const [route, field] of [
        ["/resources/language", { language: "en" }],
        ["/resources/currency", { currency: "HKD" }],
      ] as const) {
        const response = await clients.customerB.post(route, { form: { ...field, redirectTo: evil }, maxRedirects: 0 });
        check(`${route} with redirectTo=${label}`, response.headers().location);
      }
      // The admin product list's category change returns to the list it came from.
      const category = await clients.admin.post("/admin/products", {
        form: {
          intent: "category",
          productId: String(ids.productId),
          categoryId: String(ids.categoryId),
          returnTo: evil,
        },
        maxRedirects: 0,
      });
      check(`admin product category with returnTo=${label}`, category.headers().location);
    }
  } finally {
    await anonymous.dispose();
    await signer.dispose();
  }
  expect(problems).toEqual([]);
});

/* ------------------------------------------------------------------------------------------ */

/** The attributes of the Set-Cookie line for `name`, lower-cased names. */
function cookieAttributes(setCookies: string[], name: string): Map<string, string> | null {
  const line = setCookies.find((candidate) => candidate.startsWith(`${name}=`));
  if (!line) return null;
  const [, ...attributes] = line.split(";").map((part) => part.trim());
  return new Map(
    attributes.map((attribute) => {
      const [key = "", ...value] = attribute.split("=");
      return [key.toLowerCase(), value.join("=")];
    }),
  );
}

function setCookiesOf(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie")
    .map((header) => header.value);
}

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/**
 * The cookies a shopper gets without signing in: language and currency (the header's forms) and
 * the visit, on a page rendered for them and on one sent from the page cache (X-Page-Cache).
 */
async function preferenceSetCookies(playwright: Playwright, baseURL: string) {
  const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "User-Agent": BROWSER } });
  const found: Record<string, string[]> = {};
  try {
    for (const [url, form] of [
      ["/resources/language", { language: "zh", redirectTo: "/" }],
      ["/resources/currency", { currency: "GBP", redirectTo: "/" }],
    ] as const) {
      const response = await client.post(url, { form, maxRedirects: 0 });
      expect(response.status(), url).toBe(302);
      found[url] = setCookiesOf(response);
    }
    const cache = new Set<string>();
    for (let i = 0; i < 3 && cache.size < 2; i++) {
      // A fresh visitor each time: anonymous, so the second is served from the page cache.
      const visitor = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "User-Agent": BROWSER } });
      const response = await visitor.get("/faq");
      const source = response.headers()["x-page-cache"] ?? "none";
      cache.add(source);
      found[`/faq (page cache: ${source})`] = setCookiesOf(response);
      await visitor.dispose();
    }
    expect([...cache].sort()).toEqual(["hit", "miss"]);
  } finally {
    await client.dispose();
  }
  return found;
}

async function signInSetCookies(client: APIRequestContext, account: Account): Promise<string[]> {
  const response = await client.post("/login", {
    form: { intent: "login", ...account, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  return setCookiesOf(response);
}

test("the session, language, currency and visit cookies are HttpOnly, SameSite=Lax, Path=/, and Secure when PUBLIC_URL is https", async ({
  playwright,
}) => {
  const plain = await playwright.request.newContext({ baseURL: shop.baseURL });
  try {
    const sid = cookieAttributes(await signInSetCookies(plain, accounts.customerA), "sid");
    expect(sid, "the session cookie of an http shop").not.toBeNull();
    expect(sid?.has("httponly")).toBe(true);
    expect(sid?.get("samesite")?.toLowerCase()).toBe("lax");
    expect(sid?.get("path")).toBe("/");
    // Plain http (development, a loopback test): a Secure cookie would never come back.
    expect(sid?.has("secure")).toBe(false);
  } finally {
    await plain.dispose();
  }
  const plainPreferences = await preferenceSetCookies(playwright, shop.baseURL);
  for (const [where, setCookies] of Object.entries(plainPreferences)) {
    expect(setCookies.length, where).toBeGreaterThan(0);
    for (const line of setCookies) expect(line, `${where} over http`).not.toMatch(/;\s*secure/i);
  }

  // The same data behind an https address (a TLS proxy in front; the process still listens on http).
  const secureShop = await startShop({ files: shop.files, env: { PUBLIC_URL: "https://shop.example" } });
  const client = await playwright.request.newContext({ baseURL: secureShop.baseURL });
  try {
    const setCookies = await signInSetCookies(client, accounts.customerA);
    expect(cookieAttributes(setCookies, "sid"), "no plain sid cookie on https").toBeNull();
    const sid = cookieAttributes(setCookies, "__Host-sid");
    expect(sid, `the session cookie of an https shop in ${setCookies.join(" | ")}`).not.toBeNull();
    expect(sid?.has("httponly")).toBe(true);
    expect(sid?.has("secure")).toBe(true);
    expect(sid?.get("samesite")?.toLowerCase()).toBe("lax");
    expect(sid?.get("path")).toBe("/");
    expect(sid?.has("domain")).toBe(false);

    const preferences = await preferenceSetCookies(playwright, secureShop.baseURL);
    const names: Record<string, string> = {
      "/resources/language": "lng",
      "/resources/currency": "currency",
      "/faq (page cache: miss)": "visit",
      "/faq (page cache: hit)": "visit",
    };
    expect(Object.keys(preferences).sort()).toEqual(Object.keys(names).sort());
    for (const [where, setCookies] of Object.entries(preferences)) {
      const cookie = cookieAttributes(setCookies, names[where] ?? "");
      expect(cookie, `${where}: ${setCookies.join(" | ")}`).not.toBeNull();
      expect(cookie?.has("secure"), `${where}: ${setCookies.join(" | ")}`).toBe(true);
      expect(cookie?.has("httponly"), where).toBe(true);
      expect(cookie?.get("samesite")?.toLowerCase(), where).toBe("lax");
    }
  } finally {
    await client.dispose();
    await secureShop.stop();
  }
});

test("an address that cannot be percent-decoded gets the shop's 400 page in the visitor's language, and no stack in the log", async () => {
  const logBefore = shop.stderr().length;
  const client = clients.signedOut;
  for (const path of ["/product/%FF%FE", "/%E0%A4%A?q=1", "/assets/%FF.js", "/admin/products/edit/%C0"]) {
    for (const [language, heading, lang] of [
      ["en-GB", "This address cannot be read", "en"],
      ["zh-HK", "無法讀取此網址", "zh-Hant-HK"],
    ] as const) {
      const response = await client.get(path, { headers: { "Accept-Language": language } });
      expect(response.status(), `${path} in ${language}`).toBe(400);
      expect(response.headers()["content-type"]).toMatch(/^text\/html/);
      expect(response.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
      const html = await response.text();
      expect(html, `${path} in ${language}`).toContain(`<html lang="${lang}"`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      // The shop's own page: its header and footer around the message.
      expect(html).toContain("<footer");
    }
  }
  const log = shop.stderr().slice(logBefore);
  // A stack printed, or inside a JSON log line (its newlines escaped).
  expect(log, "the server log").not.toMatch(/URIError|\n\s+at |\\n\s+at /);
});

test("a download sends each security header once; a member of staff's forged customer export is refused in words", async () => {
  for (const path of ["/admin/products/export", "/admin/customers/export"]) {
    const response = await clients.admin.post(path, { form: {} });
    expect(response.status(), path).toBe(200);
    const names = response.headersArray().map((header) => header.name.toLowerCase());
    for (const name of ["x-content-type-options", "content-security-policy", "x-frame-options", "referrer-policy"]) {
      expect(
        names.filter((candidate) => candidate === name),
        `${name} of ${path}`,
      ).toHaveLength(1);
    }
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  }
  for (const [query, title] of [
    ["", "Only the shop owner can use this page"],
    ["?lng=zh", "只有店主可以使用此頁面"],
  ] as const) {
    const response = await clients.staff.post(`/admin/customers/export${query}`, { form: { q: "" } });
    expect(response.status()).toBe(403);
    const body = await response.text();
    expect(body).toContain(title);
    expect(body).not.toContain("adminStaff.");
  }
});
