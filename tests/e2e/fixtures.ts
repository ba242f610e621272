import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import Database from "better-sqlite3";

/**
 * Shared helpers for the end-to-end specs. `jsEnabled` tells a spec which project it runs in,
 * so a step can take the JavaScript path (auto-submit) or the plain-HTML path (a button).
 */
export const test = base.extend<{ jsEnabled: boolean; inChinese: () => Promise<void> }>({
  jsEnabled: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  /** Sets the language cookie the toggle sets, as if the shopper had chosen Chinese before. */
  inChinese: async ({ context, baseURL }, use) => {
    await use(() => setLanguage(context, baseURL ?? "", "zh"));
  },
});

export async function setLanguage(context: BrowserContext, baseURL: string, language: "en" | "zh"): Promise<void> {
  // The cookie value is what React Router's createCookie writes: base64 of the JSON string.
  await context.addCookies([{ name: "lng", value: btoa(JSON.stringify(language)), url: baseURL }]);
}

export { expect };

export const CJK = /[\u3400-\u9fff]/;

/* ------------------------------------------------------------------------------------------
 * Accounts: unique shoppers, each behind its own loopback address.
 *
 * The shop counts sign-ins, sign-ups and reset e-mails per client address as well as per
 * account. Every browser would otherwise reach it from 127.0.0.1 and share one allowance
 * (playwright.config.ts also raises the per-address limits with RATE_LIMIT_ADDRESS_FACTOR).
 * `shopperTest` gives each test's browser context (and each extra context from `newShopper`)
 * a small forwarding proxy that connects to the shop from its own random 127.x.y.z address:
 * one shopper, one address, like real customers, so no test spends another's allowance.
 * ------------------------------------------------------------------------------------------ */

/** A unique, lower-case e-mail address for one test's account. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`;
}

/** A password no other test uses. */
export function uniquePassword(): string {
  return `pw-${Math.random().toString(36).slice(2, 12)}-secret`;
}

export interface ClientProxy {
  /** For Playwright's `proxy` option. */
  server: string;
  /** The loopback address the shop sees as the client's. */
  address: string;
  close(): Promise<void>;
}

function randomLoopbackAddress(): string {
  const byte = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
  return `127.${byte(1, 254)}.${byte(0, 255)}.${byte(1, 254)}`;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "upgrade", "te"]);

function withoutHopByHop(raw: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? "";
    if (!HOP_BY_HOP.has(name.toLowerCase())) kept.push(name, raw[i + 1] ?? "");
  }
  return kept;
}

/** A plain-HTTP forwarding proxy on 127.0.0.1 whose upstream connections come from `address`. */
export async function startClientProxy(address = randomLoopbackAddress()): Promise<ClientProxy> {
  const agent = new http.Agent({ keepAlive: true, localAddress: address });
  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("absolute URL expected");
      return;
    }
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: withoutHopByHop(req.rawHeaders),
        agent,
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.statusMessage, withoutHopByHop(response.rawHeaders));
        response.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  // Playwright's own HTTP client (page.request) tunnels through CONNECT instead.
  const tunnels = new Set<net.Socket>();
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const [host = "", port = "80"] = (req.url ?? "").split(/:(?=\d+$)/);
    const upstream = net.connect({ host, port: Number(port), localAddress: address }, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      tunnels.add(socket);
      socket.on("close", () => tunnels.delete(socket));
    }
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    address,
    async close() {
      server.closeAllConnections();
      for (const socket of tunnels) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

export interface Shopper {
  context: BrowserContext;
  page: Page;
  /** The client address the shop sees. */
  address: string;
}

/**
 * `test` plus: the default context reaches the shop from its own address (`clientAddress`),
 * and `newShopper()` opens another browser (own cookies, own address) with the same settings.
 */
export const shopperTest = test.extend<{
  clientProxy: ClientProxy;
  clientAddress: string;
  newShopper: () => Promise<Shopper>;
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures name their dependencies this way
  clientProxy: async ({}, use) => {
    const proxy = await startClientProxy();
    await use(proxy);
    await proxy.close();
  },
  proxy: async ({ clientProxy }, use) => {
    await use({ server: clientProxy.server });
  },
  clientAddress: async ({ clientProxy }, use) => {
    await use(clientProxy.address);
  },
  newShopper: async ({ browser, baseURL, javaScriptEnabled, locale }, use) => {
    const opened: { context: BrowserContext; proxy: ClientProxy }[] = [];
    await use(async () => {
      const proxy = await startClientProxy();
      const context = await browser.newContext({ baseURL, javaScriptEnabled, locale, proxy: { server: proxy.server } });
      opened.push({ context, proxy });
      return { context, page: await context.newPage(), address: proxy.address };
    });
    for (const { context, proxy } of opened) {
      await context.close();
      await proxy.close();
    }
  },
});

/** Signs up on the real form (/login?mode=signup) and waits for the success message. */
export async function signUp(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login?mode=signup");
  await expect(page.getByRole("heading", { level: 1, name: "Sign Up" })).toBeVisible();
  await submitAuthForm(page, email, password, "Sign Up");
  await expect(page.getByRole("status").filter({ hasText: "Sign up successful" })).toBeVisible();
}

/**
 * Creates an account by posting the sign-up form straight to /login (for tests about something
 * else); `request` keeps the signed-in session cookie, like the browser would.
 */
export async function signUpWithRequest(
  request: import("@playwright/test").APIRequestContext,
  email: string,
  password: string,
): Promise<void> {
  const response = await request.post("/login", {
    form: { intent: "signup", email, password, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect([302, 303], `sign-up of ${email}`).toContain(response.status());
}

/** Signs in on the real form (/login) and waits for the success message. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
  await submitAuthForm(page, email, password, "Login");
  await expect(page.getByRole("status").filter({ hasText: "Login successful" })).toBeVisible();
}

/** Fills E-mail and Password of the form on the page and presses its `button`. */
export async function submitAuthForm(page: Page, email: string, password: string, button: string): Promise<void> {
  const form = page.locator("main form").filter({ has: page.getByRole("button", { name: button, exact: true }) });
  await form.getByLabel("E-mail", { exact: true }).fill(email);
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByRole("button", { name: button, exact: true }).click();
}

/** Opens the header's user menu (a <details>, so it works without JavaScript) and logs out. */
export async function logOut(page: Page, email: string): Promise<void> {
  await userMenu(page, email).locator("summary").click();
  await userMenu(page, email).getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You have been logged out" })).toBeVisible();
}

/** The header's user menu: the <details> behind the user icon that holds the signed-in e-mail. */
export function userMenu(page: Page, email: string) {
  return page.locator("header details[data-testid=user-menu]").filter({ hasText: email });
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Folders of a test server (see playwright.config.ts): "main", or an owner project's own. */
export function serverPaths(server = "main") {
  const dir = process.env.E2E_DIR;
  if (!dir) throw new Error("E2E_DIR is not set: run through playwright.config.ts");
  const data = path.join(dir, server, "data");
  return { data, mail: path.join(data, "mail"), uploads: path.join(dir, server, "uploads") };
}

/** Folders of the main test server. */
export function mainServerPaths() {
  return serverPaths("main");
}

/**
 * Runs `fn` while no other Playwright worker holds the lock `name` (a directory in the run's
 * temporary folder). "primary": another bank account than the demo one is primary meanwhile
 * (tests/e2e/admin/settings.spec.ts), so the payment page and the admin banner change.
 */
export async function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = path.join(process.env.E2E_DIR ?? "/tmp", `settings-lock-${name}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `run` on the main test server's SQLite file: for data no page makes (a product without
 * images, a category switched off behind the shop's back). WAL lets it write beside the server.
 */
export function withMainDatabase<T>(run: (db: Database.Database) => T): T {
  const db = new Database(path.join(serverPaths("main").data, "shop.db"));
  try {
    db.pragma("busy_timeout = 10000");
    return run(db);
  } finally {
    db.close();
  }
}

/**
 * A product of its own in Rifles, written straight into the main server's database (no images,
 * HK$500), named `${prefix} ${tag}` / `${prefixZh} ${tag}` with a tag no other run shares, with
 * `colours` ([English, Chinese or null, stock] in order).
 */
export function insertRifle(
  prefix: { en: string; zh: string },
  colours: Array<[color: string, colorZh: string | null, stock: number]>,
): { id: number; en: string; zh: string } {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const name = { en: `${prefix.en} ${tag}`, zh: `${prefix.zh} ${tag}` };
  return withMainDatabase((db) => {
    const category = db.prepare("SELECT id FROM categories WHERE slug = 'rifles'").get() as { id: number };
    const at = new Date().toISOString();
    const info = db
      .prepare(
        `INSERT INTO products (category_id, name_en, name_zh, description_en, description_zh, price_hkd_cents,
           price_gbp_cents, price_eur_cents, price_usd_cents, created_at, updated_at)
         VALUES (?, ?, ?, '', '', 50000, 5000, 5900, 6400, ?, ?)`,
      )
      .run(category.id, name.en, name.zh, at, at);
    const id = Number(info.lastInsertRowid);
    const variant = db.prepare(
      "INSERT INTO product_variants (product_id, color, color_zh, stock, sort_order) VALUES (?, ?, ?, ?, ?)",
    );
    colours.forEach(([color, colorZh, stock], i) => {
      variant.run(id, color, colorZh, stock, i);
    });
    return { id, ...name };
  });
}

/** The server of the running owner project ("owner-js" / "owner-no-js"): its own shop per run. */
export function ownerServer(javaScriptEnabled: boolean): string {
  return javaScriptEnabled ? "owner-js" : "owner-no-js";
}

/**
 * Makes `email` an admin of a test server (the main one unless named) with the real CLI
 * (creating the account with `password` if it does not exist yet): an owner, or staff.
 */
export function createAdmin(email: string, password: string, server = "main", role: "owner" | "staff" = "owner"): void {
  const { data, uploads } = serverPaths(server);
  const args = ["bin/shop.mjs", "admin:create", "--email", email, "--password", password];
  execFileSync(process.execPath, role === "staff" ? [...args, "--role", "staff"] : args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: data,
      // playwright.scale.config.ts runs the main shop on PostgreSQL (E2E_DATABASE_URL).
      DATABASE_URL: process.env.E2E_DATABASE_URL || `file:${path.join(data, "shop.db")}`,
      UPLOADS_DIR: uploads,
      NODE_ENV: "production",
    },
    stdio: "pipe",
    timeout: 60_000,
  });
}

/**
 * Makes a new admin account with the real CLI and signs it in on /admin/login (a fresh admin
 * per test, so no test depends on another's session). Returns the account's e-mail.
 */
export async function signInAsAdmin(page: Page, prefix = "admin", server = "main"): Promise<string> {
  const email = uniqueEmail(prefix);
  const password = uniquePassword();
  createAdmin(email, password, server);
  await page.goto("/admin/login");
  await submitAuthForm(page, email, password, "Login");
  await expect(page).toHaveURL(/\/admin$/);
  return email;
}

/** Decodes a quoted-printable body: soft line breaks and =XX escapes. */
export function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The .eml files of the main server addressed to `email`, oldest first. */
export function mailsTo(email: string): { file: string; raw: string }[] {
  const { mail } = mainServerPaths();
  if (!fs.existsSync(mail)) return [];
  const wanted = email.toLowerCase();
  return fs
    .readdirSync(mail)
    .filter((name) => name.endsWith(".eml"))
    .sort()
    .map((name) => ({ file: path.join(mail, name), raw: fs.readFileSync(path.join(mail, name), "utf8") }))
    .filter(({ raw }) => {
      const to = /^To:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? "";
      return to.toLowerCase().includes(wanted);
    });
}

/** The text of an e-mail with quoted-printable and base64 parts decoded. */
export function readableMail(raw: string): string {
  const base64Parts = [
    ...raw.matchAll(/Content-Transfer-Encoding:\s*base64\s*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi),
  ]
    .map((match) => Buffer.from((match[1] ?? "").replace(/\s+/g, ""), "base64").toString("utf8"))
    .join("\n");
  return `${decodeQuotedPrintable(raw)}\n${base64Parts}`;
}

/**
 * Waits for the newest e-mail to `email` (written after `since` ms, if given) that holds a
 * password-reset link, and returns the link (absolute, as in the e-mail).
 */
export async function waitForResetLink(email: string, options: { since?: number; timeout?: number } = {}) {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = mailsTo(email).filter(({ file }) => {
          const written = Number(path.basename(file).split("-")[0]);
          return options.since === undefined || written >= options.since;
        });
        const newest = mails.at(-1);
        link = newest
          ? /(?:https?:\/\/[^\s"'<>]+)?\/reset-password\?token=[A-Za-z0-9_\-.~%]+/.exec(readableMail(newest.raw))?.[0]
          : undefined;
        return link;
      },
      { message: `a password-reset e-mail to ${email}`, timeout: options.timeout ?? 10_000 },
    )
    .toBeTruthy();
  return link as string;
}

/* ------------------------------------------------------------------------------------------
 * Purchases (tests/e2e/purchase): receipt files, product look-ups, the stock the product page
 * shows per colour, and shoppers driven by plain HTTP requests, each signed up from its own
 * loopback address (see `startClientProxy`).
 * ------------------------------------------------------------------------------------------ */

type PurchaseRequest = import("@playwright/test").APIRequestContext;
type PurchaseBrowser = import("@playwright/test").Browser;
type PurchasePlaywright = import("@playwright/test").PlaywrightWorkerArgs["playwright"];

/** A file for `setInputFiles` or a multipart field. */
export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Customer details the checkout form accepts (the e-mail is the shopper's own). */
export const CHECKOUT_DETAILS = {
  firstName: "Chan",
  lastName: "Tai Man",
  phone: "+852 9123 4567",
  address: "Flat A, 12/F, 1 Nathan Road",
  city: "Tsim Sha Tsui",
  // The select's value: an ISO code (decision 047).
  country: "HK",
} as const;

/** A small, real JPEG made with sharp: what a phone screenshot of a transfer would be. */
export async function receiptJpeg(name = "receipt.jpg"): Promise<UploadFile> {
  const { default: sharp } = await import("sharp");
  const buffer = await sharp({
    create: { width: 480, height: 320, channels: 3, background: { r: 24, g: 110, b: 190 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

/** A one-colour PNG made with sharp (product images whose colour a test can tell apart). */
export async function solidPng(
  name: string,
  colour: { r: number; g: number; b: number },
  size = 64,
): Promise<UploadFile> {
  const { default: sharp } = await import("sharp");
  const buffer = await sharp({ create: { width: size, height: size, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** Goes to `url` and, with JavaScript, waits until the page is hydrated. */
export async function openPage(page: Page, url: string, jsEnabled: boolean): Promise<void> {
  await page.goto(url);
  if (jsEnabled) await waitForReact(page);
}

/** Plain text named receipt.png (and claiming to be a PNG). */
export function receiptTextAsPng(): UploadFile {
  return { name: "receipt.png", mimeType: "image/png", buffer: Buffer.from("This is not an image, only text.\n") };
}

/** A real JPEG padded to 6 MB: over the 5 MB receipt limit. */
export async function receiptOversized(): Promise<UploadFile> {
  const { buffer } = await receiptJpeg();
  return {
    name: "big-receipt.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.concat([buffer, Buffer.alloc(6 * 1024 * 1024 - buffer.length, 0x20)]),
  };
}

/** A product's id by its exact English name, from the header search's resource route. */
export async function productIdByName(request: PurchaseRequest, name: string): Promise<number> {
  const response = await request.get(`/resources/search?q=${encodeURIComponent(name)}`);
  expect(response.status(), `search for ${name}`).toBe(200);
  const { results } = (await response.json()) as { results: { id: number; name_en: string }[] };
  const found = results.find((result) => result.name_en === name);
  if (!found) throw new Error(`no product named ${JSON.stringify(name)}`);
  return found.id;
}

/** Waits until React has hydrated the page, so its event handlers are attached. */
export async function waitForReact(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const key = Object.keys(document).find((k) => k.startsWith("__reactContainer$"));
    // biome-ignore lint/suspicious/noExplicitAny: React internals, read only
    const state = key ? (document as any)[key]?.stateNode?.current?.memoizedState : undefined;
    return state !== undefined && state !== null && state.isDehydrated === false;
  });
}

/**
 * The stock of every colour of a product as its page shows it ("N in stock" / "Sold out"),
 * read in a fresh English browser with JavaScript (the shown stock follows the chosen colour).
 */
export async function colourStocks(browser: PurchaseBrowser, baseURL: string, productId: number) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true, locale: "en-GB" });
  try {
    const page = await context.newPage();
    await page.goto(`/product/${productId}`);
    await waitForReact(page);
    const form = page.locator("main form").filter({ has: page.locator("input[name=productId]") });
    const stock = page.getByTestId("stock");
    const read = async () => {
      const text = ((await stock.textContent()) ?? "").trim();
      if (text === "Sold out") return 0;
      const match = /^(\d+) in stock$/.exec(text);
      if (!match) throw new Error(`unexpected stock text ${JSON.stringify(text)}`);
      return Number(match[1]);
    };
    const stocks: Record<string, number> = {};
    const radios = form.locator("input[type=radio][name=color]");
    const colours = await radios.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    if (colours.length === 0) {
      stocks[(await form.locator("input[name=color]").getAttribute("value")) ?? "Default"] = await read();
    }
    for (const colour of colours) {
      const selector = `input[type=radio][name=color][value="${colour}"]`;
      const radio = form.locator(selector);
      // A sold-out colour is a disabled radio: it cannot be chosen.
      if (await radio.isDisabled()) {
        stocks[colour] = 0;
        continue;
      }
      await form
        .locator("label")
        .filter({ has: page.locator(selector) })
        .click();
      await expect(radio).toBeChecked();
      stocks[colour] = await read();
    }
    return stocks;
  } finally {
    await context.close();
  }
}

/** A shopper made of HTTP requests: own cookies, own client address, already signed up. */
export interface ApiShopper {
  request: PurchaseRequest;
  email: string;
  password: string;
  address: string;
  dispose(): Promise<void>;
}

export async function newApiShopper(playwright: PurchasePlaywright, baseURL: string, prefix = "api-buyer") {
  const proxy = await startClientProxy();
  const request = await playwright.request.newContext({ baseURL, proxy: { server: proxy.server } });
  const shopper: ApiShopper = {
    request,
    email: uniqueEmail(prefix),
    password: uniquePassword(),
    address: proxy.address,
    async dispose() {
      await request.dispose();
      await proxy.close();
    },
  };
  try {
    await apiSignUp(request, shopper.email, shopper.password);
  } catch (error) {
    await shopper.dispose();
    throw error;
  }
  return shopper;
}

/** Posts the sign-up form as a browser without JavaScript would. */
export async function apiSignUp(request: PurchaseRequest, email: string, password: string): Promise<void> {
  const response = await request.post("/login", {
    form: { intent: "signup", email, password, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(response.status(), `sign-up of ${email}`).toBe(302);
  expect(response.headers().location).toMatch(/^(https?:\/\/[^/]+)?\/$/);
}

/** Posts the product page's Add to Cart form (no JavaScript): the cart answers with a redirect. */
export async function apiAddToCart(
  request: PurchaseRequest,
  productId: number,
  color: string,
  quantity = 1,
): Promise<void> {
  const response = await request.post("/cart", {
    form: { intent: "add", productId: String(productId), color, quantity: String(quantity), redirectTo: "/cart" },
    maxRedirects: 0,
  });
  // Success is a 302 back; a refusal a 303 back with an error flash.
  expect(response.status(), `add ${quantity} × ${productId} ${color}`).toBe(302);
}

/** Posts the checkout form; a signed-in shopper is sent on to /payment. */
export async function apiCheckout(request: PurchaseRequest, email: string): Promise<void> {
  const response = await request.post("/checkout", { form: { ...CHECKOUT_DETAILS, email }, maxRedirects: 0 });
  expect(response.status(), "checkout").toBe(302);
  expect(response.headers().location).toMatch(/\/payment$/);
}

/** The payment page's one-time submission key (its hidden field). */
export async function apiPaymentKey(request: PurchaseRequest): Promise<string> {
  const response = await request.get("/payment");
  expect(response.status()).toBe(200);
  const key = /name="submissionKey" value="([^"]+)"/.exec(await response.text())?.[1];
  if (!key) throw new Error("the payment page has no submission key (no checkout or an empty cart?)");
  return key;
}

/** Posts the payment form (multipart) without following the redirect. */
export async function apiSubmitPayment(
  request: PurchaseRequest,
  submissionKey: string,
  receipt: UploadFile,
  extra: Record<string, string> = {},
) {
  return request.post("/payment", { multipart: { ...extra, submissionKey, receipt }, maxRedirects: 0 });
}

/** The shopper's orders as /account/orders lists them: ids and numbers, newest first. */
export async function apiOrders(request: PurchaseRequest): Promise<{ id: string; number: string }[]> {
  const response = await request.get("/account/orders", { maxRedirects: 0 });
  expect(response.status(), "/account/orders").toBe(200);
  const html = await response.text();
  return [...html.matchAll(/href="\/account\/orders\/([0-9a-f-]{36})"[^>]*>(ORD-\d{13}-[0-9A-F]{6})</g)].map(
    (match) => ({ id: match[1] ?? "", number: match[2] ?? "" }),
  );
}

/**
 * A signed-in API shopper buys `quantity` of one colour, checks out and pays with a receipt (plain
 * HTTP, as a browser without JavaScript): the order as their account lists it.
 */
export async function apiPlaceOrder(shopper: ApiShopper, productId: number, colour: string, quantity = 1) {
  await apiAddToCart(shopper.request, productId, colour, quantity);
  await apiCheckout(shopper.request, shopper.email);
  const response = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
  expect(response.status(), "payment").toBe(302);
  const [order] = await apiOrders(shopper.request);
  if (!order) throw new Error("the order is missing from the shopper's account");
  return order;
}

/** The text of an element with `data-testid` in server HTML ("HK$78.00"). */
export function testIdText(html: string, testId: string): string | undefined {
  return new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1]?.trim();
}

/** The newest e-mail to `email` whose text matches `pattern`: the match. */
export async function waitForMail(email: string, pattern: RegExp): Promise<RegExpExecArray> {
  let found: RegExpExecArray | null = null;
  await expect
    .poll(
      () => {
        found = null;
        for (const { raw } of mailsTo(email)) found = pattern.exec(readableMail(raw)) ?? found;
        return found !== null;
      },
      { message: `an e-mail to ${email} matching ${pattern}`, timeout: 15_000 },
    )
    .toBe(true);
  return found as unknown as RegExpExecArray;
}
