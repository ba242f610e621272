import { type APIRequestContext, expect, test } from "@playwright/test";
import { runStatement } from "../setup/postgres";
import {
  adminSignIn,
  type Books,
  createAdmin,
  newShopFiles,
  removeFiles,
  type Shop,
  type ShopCluster,
  type ShopFiles,
  startScaleShop,
  startShop,
  startShopCluster,
} from "./shop";
import {
  disposeShoppers,
  pay,
  readyToPay,
  type Shopper,
  sameSessionOn,
  signUpShoppers,
  sqliteBooks,
  type Variant,
  withWritableDatabase,
} from "./shoppers";

/**
 * The rendered-page cache (server/page-cache.ts, docs/decisions/032, 067) across processes:
 * every kind of catalogue write (the search synonyms too) is seen by the next page of every
 * process, a cached page carries its own response's nonce, languages, currencies and cart counts
 * never mix, and signed-in customers and admins get the same cached pages with their own header
 * (e-mail, cart count, the admin link) spliced in, never another's. Two processes on one SQLite
 * file (the default on a two-core machine) and two on PostgreSQL.
 */

/** An amount in each currency as the shop writes it: the symbol and a digit (not the picker's codes). */
const CURRENCY_SYMBOLS = [
  ["HKD", /HK\$\d/g],
  ["GBP", /£\d/g],
  ["EUR", /€\d/g],
  ["USD", /(?<!HK)\$\d/g],
] as const;

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

interface Layout {
  name: string;
  start(): Promise<{
    cluster: ShopCluster;
    files: ShopFiles;
    books: Books;
    exec(statement: string): Promise<void>;
    stop(): Promise<void>;
  }>;
}

const LAYOUTS: Layout[] = [
  {
    name: "two processes on one SQLite file",
    async start() {
      const files = newShopFiles("page-cache");
      // Migrated and seeded by one process first: two independent processes on one new SQLite
      // file would both migrate it (npm start's own workers never do: their primary prepares).
      await (await startShop({ files })).stop();
      const cluster = await startShopCluster(files, 2);
      return {
        cluster,
        files,
        books: sqliteBooks(files),
        exec: async (statement) => withWritableDatabase(files, (db) => void db.exec(statement)),
        async stop() {
          await cluster.stop();
          removeFiles(files);
        },
      };
    },
  },
  {
    name: "two processes on PostgreSQL",
    async start() {
      const scale = await startScaleShop("page-cache", 2);
      const url = scale.files.databaseUrl as string;
      return {
        cluster: scale,
        files: scale.files,
        books: scale.books,
        exec: (statement) => runStatement(url, statement),
        stop: scale.stop,
      };
    },
  },
];

/** An anonymous page as a browser asks for it (not a crawler), with the cache's verdict. */
async function page(shop: Shop, path: string, cookie = ""): Promise<{ html: string; cache: string; csp: string }> {
  const response = await fetch(`${shop.baseURL}${path}`, {
    headers: { "user-agent": BROWSER, "accept-encoding": "gzip", ...(cookie ? { cookie } : {}) },
    redirect: "manual",
  });
  expect(response.status, `${path} on ${shop.baseURL}`).toBe(200);
  return {
    html: await response.text(),
    cache: response.headers.get("x-page-cache") ?? "none",
    csp: response.headers.get("content-security-policy") ?? "",
  };
}

/** Asks every process for `path` until each answers it from its cache (a warm cache everywhere). */
async function warm(shops: readonly Shop[], path: string): Promise<void> {
  for (const shop of shops) {
    await page(shop, path);
    expect((await page(shop, path)).cache, `${path} cached on ${shop.baseURL}`).toBe("hit");
  }
}

for (const layout of LAYOUTS) {
  test.describe(layout.name, () => {
    test.describe.configure({ mode: "serial", timeout: 240_000 });
    let shop: Awaited<ReturnType<Layout["start"]>>;
    let shops: Shop[];
    let variant: Variant;

    test.beforeAll(async () => {
      test.setTimeout(240_000);
      shop = await layout.start();
      shops = shop.cluster.shops;
      [variant] = (await shop.books.variants(1)) as [Variant];
    });

    test.afterAll(async () => {
      await shop?.stop();
    });

    test("each kind of catalogue write shows on the next anonymous page of every process", async () => {
      const product = `/product/${variant.productId}`;
      const writes: { what: string; path: string; statement: string; shows: RegExp }[] = [
        {
          what: "a price",
          path: product,
          statement: `UPDATE products SET price_hkd_cents = 987654 WHERE id = ${variant.productId}`,
          shows: /HK\$9,876\.54/,
        },
        {
          what: "a product name (search results)",
          path: "/search?q=Renamed+Cache",
          statement: `UPDATE products SET name_en = 'Renamed Cache Rifle' WHERE id = ${variant.productId}`,
          shows: /Renamed Cache Rifle/,
        },
        {
          // Decision 043: the owner's synonym list is a setting; a search it changes is not served stale.
          what: "the search synonyms (search results)",
          path: "/search?q=Cachewort",
          statement:
            `INSERT INTO site_settings (key, value, updated_at) VALUES ('search_synonyms', '[["Cachewort","Renamed Cache"]]', '2026-11-24T00:00:00.000Z') ` +
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          shows: /Renamed Cache Rifle/,
        },
        {
          what: "a category",
          path: "/",
          statement:
            "UPDATE categories SET name_en = 'Renamed Cache Category' WHERE id = (SELECT min(id) FROM categories)",
          shows: /Renamed Cache Category/,
        },
        {
          what: "a blog post",
          path: "/blog",
          statement:
            "UPDATE blog_posts SET title_en = 'Renamed Cache Post', published = 1 WHERE id = (SELECT min(id) FROM blog_posts)",
          shows: /Renamed Cache Post/,
        },
        {
          what: "a setting (an information page's text)",
          path: "/faq",
          statement:
            `INSERT INTO site_settings (key, value, updated_at) VALUES ('page.faq', '{"en":{"title":"Cache FAQ","description":"d","body":"Answers from the cache test"},"zh":{"title":"常見問題","description":"d","body":"答"}}', '2026-11-24T00:00:00.000Z') ` +
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
          shows: /Answers from the cache test/,
        },
        {
          what: "stock (the colour sold out)",
          path: product,
          statement: `UPDATE product_variants SET stock = 0 WHERE product_id = ${variant.productId}`,
          shows: /data-testid="stock">Sold out/,
        },
      ];
      for (const write of writes) {
        await warm(shops, write.path);
        expect((await page(shops[0] as Shop, write.path)).html, `${write.what}: not shown before`).not.toMatch(
          write.shows,
        );
        await shop.exec(write.statement);
        for (const one of shops) {
          const after = await page(one, write.path);
          expect(after.cache, `${write.what}: rendered again on ${one.baseURL}`).not.toBe("hit");
          expect(after.html, `${write.what} on ${one.baseURL}`).toMatch(write.shows);
          expect((await page(one, write.path)).cache, `${write.what}: cached again on ${one.baseURL}`).toBe("hit");
        }
      }
    });

    test("an order that takes the last unit on one process shows the colour sold out on the other", async ({
      playwright,
    }) => {
      await shop.books.setStock(variant, 1);
      const path = `/product/${variant.productId}`;
      await warm(shops, path);
      expect((await page(shops[1] as Shop, path)).html).toMatch(/data-testid="stock">\d+ in stock/);
      const [buyer] = (await signUpShoppers(playwright, [shops[0] as Shop], 1, "cache")) as [Shopper];
      try {
        const key = await readyToPay(buyer, variant.productId, variant.color);
        const outcome = await pay(buyer.request, key, {
          name: "receipt.png",
          mimeType: "image/png",
          buffer: await tinyPng(),
        });
        expect(outcome.kind).toBe("confirmed");
      } finally {
        await disposeShoppers([buyer]);
      }
      const after = await page(shops[1] as Shop, path);
      expect(after.cache).not.toBe("hit");
      expect(after.html).not.toMatch(/data-testid="stock">\d+ in stock/);
    });

    test("a cached page carries its own response's nonce, the one its CSP names", async () => {
      await warm(shops, "/category/all");
      const seen = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const hit = await page(shops[0] as Shop, "/category/all");
        expect(hit.cache).toBe("hit");
        const nonce = /'nonce-([^']+)'/.exec(hit.csp)?.[1] as string;
        expect(nonce).toBeTruthy();
        const inPage = new Set([...hit.html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]));
        expect([...inPage]).toEqual([nonce]);
        seen.add(nonce);
      }
      expect(seen.size, "a new nonce for every response").toBe(3);
    });

    test("two languages and four currencies never mix", async ({ playwright }) => {
      const path = `/category/all`;
      const visitors: { lng: string; currency: string; symbol: RegExp; request: APIRequestContext }[] = [];
      try {
        for (const lng of ["en", "zh"]) {
          for (const [currency, symbol] of CURRENCY_SYMBOLS) {
            const request = await playwright.request.newContext({
              baseURL: (shops[0] as Shop).baseURL,
              extraHTTPHeaders: { "user-agent": BROWSER },
            });
            visitors.push({ lng, currency, symbol, request });
            for (const [url, form] of [
              ["/resources/language", { language: lng, redirectTo: path }],
              ["/resources/currency", { currency, redirectTo: path }],
            ] as const) {
              const set = await request.post(url, { form, maxRedirects: 0 });
              expect(set.status(), `${url} ${JSON.stringify(form)}`).toBeLessThan(400);
            }
          }
        }
        // Three rounds: the first shows the switches' flash messages (never cached), the second
        // fills the cache, the third must be served from it, each page as its visitor asked.
        for (let round = 0; round < 3; round++) {
          for (const visitor of visitors) {
            const response = await visitor.request.get(path);
            const html = await response.text();
            if (round === 2) expect(response.headers()["x-page-cache"]).toBe("hit");
            expect(html, `${visitor.lng}/${visitor.currency}`).toContain(
              `<html lang="${visitor.lng === "zh" ? "zh-Hant-HK" : "en"}"`,
            );
            const amounts = (symbol: RegExp) => [...html.matchAll(symbol)].length;
            for (const [, symbol] of CURRENCY_SYMBOLS) {
              if (symbol === visitor.symbol)
                expect(amounts(symbol), `${visitor.lng}/${visitor.currency}`).toBeGreaterThan(20);
              else expect(amounts(symbol), `${symbol} on the ${visitor.lng}/${visitor.currency} page`).toBe(0);
            }
          }
        }
      } finally {
        for (const visitor of visitors) await visitor.request.dispose();
      }
    });

    test("an anonymous cart's badge never comes from another visitor's cache", async ({ playwright }) => {
      const path = "/category/all";
      await warm(shops, path);
      const anonymous = await playwright.request.newContext({
        baseURL: (shops[1] as Shop).baseURL,
        extraHTTPHeaders: { "user-agent": BROWSER },
      });
      try {
        await shop.books.setStock(variant, 5);
        const add = await anonymous.post("/cart", {
          form: { intent: "add", productId: String(variant.productId), color: variant.color, quantity: "1" },
          maxRedirects: 0,
        });
        expect(add.status()).toBeLessThan(400);
        // The add left a flash message: that page is React Router's; the next ones show the badge
        // (the stock change above made the first a miss, put together like a hit).
        expect((await anonymous.get(path)).headers()["x-page-cache"]).toBeUndefined();
        for (const expected of ["miss", "hit"]) {
          const response = await anonymous.get(path);
          expect(response.headers()["x-page-cache"]).toBe(expected);
          expect(await response.text()).toMatch(/data-testid="cart-count"[^>]*>1</);
        }
        expect((await page(shops[1] as Shop, path)).html, "a visitor without a cart").not.toContain(
          'data-testid="cart-count"',
        );
      } finally {
        await anonymous.dispose();
      }
    });

    test("signed-in customers and admins get catalogue pages from the cache, each with only their own header", async ({
      playwright,
    }) => {
      test.setTimeout(360_000);
      const [first, second] = (await shop.books.variants(2)) as [Variant, Variant];
      for (const one of [first, second]) await shop.books.setStock(one, 50);
      const [carrier, empty] = (await signUpShoppers(playwright, [shops[0] as Shop], 2, "splice")) as [
        Shopper,
        Shopper,
      ];
      const adminEmail = `splice-admin-${Date.now()}@example.com`;
      const adminPassword = "splice-admin-password-1";
      createAdmin(shop.files, adminEmail, adminPassword, "staff");
      const adminRequest = await playwright.request.newContext({ baseURL: (shops[0] as Shop).baseURL });
      await adminSignIn(adminRequest, adminEmail, adminPassword);
      const admin: Shopper = {
        request: adminRequest,
        email: adminEmail,
        password: adminPassword,
        shop: shops[0] as Shop,
      };
      for (const one of [first, second]) {
        const add = await carrier.request.post("/cart", {
          form: { intent: "add", productId: String(one.productId), color: one.color, quantity: "1" },
          maxRedirects: 0,
        });
        expect(add.status()).toBe(302);
      }
      interface Visitor {
        who: string;
        email: string;
        count: number;
        admin: boolean;
        /** The same session on each process. */
        on: APIRequestContext[];
      }
      const visitors: Visitor[] = [];
      const everyone = [carrier, empty, admin];
      try {
        for (const [who, one, count] of [
          ["customer with 2 lines", carrier, 2],
          ["customer with an empty cart", empty, 0],
          ["admin", admin, 0],
        ] as const) {
          visitors.push({
            who,
            email: one.email,
            count,
            admin: one === admin,
            on: [one.request, await sameSessionOn(playwright, one, shops[1] as Shop)],
          });
        }
        const get = (visitor: Visitor, process: number, path: string) =>
          (visitor.on[process] as APIRequestContext).get(path, {
            headers: { "user-agent": BROWSER, "accept-encoding": "gzip" },
            maxRedirects: 0,
          });
        /** The header of `html` is `visitor`'s and nobody else's. */
        const expectOwn = (visitor: Visitor, html: string, what: string) => {
          expect(html, what).toContain(`data-testid="user-email">${visitor.email}</span>`);
          for (const other of visitors)
            if (other !== visitor) expect(html, `${what}: ${other.who}'s e-mail`).not.toContain(other.email);
          if (visitor.count > 0)
            expect(html, what).toMatch(new RegExp(`data-testid="cart-count"[^>]*>${visitor.count}<`));
          else expect(html, what).not.toContain('data-testid="cart-count"');
          if (visitor.admin) expect(html, what).toContain('href="/admin"');
          else expect(html, what).not.toContain('href="/admin"');
          expect(html, what).not.toContain("data-vs=");
        };
        const paths = ["/", "/category/all", `/product/${first.productId}`, "/search?q=a", "/blog", "/faq"];
        for (const [currency] of CURRENCY_SYMBOLS) {
          for (const visitor of visitors) {
            for (const process of [0, 1]) {
              const set = await (visitor.on[process] as APIRequestContext).post("/resources/currency", {
                form: { currency, redirectTo: "/" },
                maxRedirects: 0,
              });
              expect(set.status()).toBeLessThan(400);
              // The switch's message is shown once (React Router's page, not the cache's).
              const flash = await get(visitor, process, "/");
              expect(flash.headers()["x-page-cache"]).toBeUndefined();
              expectOwn(visitor, await flash.text(), `${visitor.who}: the currency switch's page`);
            }
          }
          // Round-robin: warm-up, then every answer a hit with its visitor's own header.
          for (const round of ["warm", "hit"] as const) {
            for (const path of paths) {
              for (const lng of ["en", "zh"]) {
                const url = `${path}${path.includes("?") ? "&" : "?"}lng=${lng}`;
                for (const process of [0, 1]) {
                  for (const visitor of visitors) {
                    const response = await get(visitor, process, url);
                    expect(response.status(), url).toBe(200);
                    const what = `${visitor.who} ${url} ${currency} on process ${process + 1}`;
                    if (round === "hit") expect(response.headers()["x-page-cache"], what).toBe("hit");
                    const html = await response.text();
                    expect(html, what).toContain(`<html lang="${lng === "zh" ? "zh-Hant-HK" : "en"}"`);
                    expectOwn(visitor, html, what);
                  }
                }
              }
            }
          }
        }
        const [withCart, withoutCart, theAdmin] = visitors as [Visitor, Visitor, Visitor];

        // `.data` (client-side navigation) is spliced too: the visitor's own view in the root data.
        for (const visitor of visitors) {
          await get(visitor, 1, "/category/all.data");
          const response = await get(visitor, 1, "/category/all.data");
          expect(response.headers()["x-page-cache"], `${visitor.who} .data`).toBe("hit");
          const text = await response.text();
          expect(text).toContain(`\\"email\\":\\"${visitor.email}\\"`);
          expect(text).toContain(`\\"cartCount\\":${visitor.count}`);
          for (const other of visitors) if (other !== visitor) expect(text).not.toContain(other.email);
        }

        // A price changed (any process's write) shows at once on process 2 for a signed-in customer.
        const product = `/product/${first.productId}`;
        expect((await get(withCart, 1, `${product}?lng=en`)).headers()["x-page-cache"]).toBe("hit");
        await shop.exec(`UPDATE products SET price_hkd_cents = 876543 WHERE id = ${first.productId}`);
        await shop.exec(`UPDATE product_variants SET stock = 0 WHERE product_id = ${first.productId}`);
        const changed = await get(withCart, 1, `${product}?lng=en`);
        expect(changed.headers()["x-page-cache"]).not.toBe("hit");
        const changedHtml = await changed.text();
        expect(changedHtml).toMatch(/data-testid="stock">Sold out/);
        expectOwn(withCart, changedHtml, "after the change");
        expect((await get(withCart, 1, `${product}?lng=en`)).headers()["x-page-cache"]).toBe("hit");

        // A no-JS add to cart: the next page shows the flash (not from the cache), the one after is a hit without it.
        await get(withCart, 1, "/?lng=en"); // rendered at the catalogue's new version (the change above)
        const add = await (withCart.on[0] as APIRequestContext).post("/cart", {
          form: { intent: "add", productId: String(second.productId), color: second.color, quantity: "1" },
          maxRedirects: 0,
        });
        expect(add.status()).toBe(302);
        const flashed = await get(withCart, 1, "/?lng=en");
        expect(flashed.headers()["x-page-cache"]).toBeUndefined();
        expect(await flashed.text()).toContain("data-flash=");
        const after = await get(withCart, 1, "/?lng=en");
        expect(after.headers()["x-page-cache"]).toBe("hit");
        const afterHtml = await after.text();
        expect(afterHtml).not.toContain("data-flash=");
        // Two lines of the same colour count as before: the quantity rose, the lines stayed two.
        expectOwn(withCart, afterHtml, "after the add");

        // A customer blocked (on process 1's database) gets on process 2 an anonymous page, the
        // session cookie cleared, and never a hit with their header.
        await shop.exec(`UPDATE users SET status = 'blocked' WHERE email = '${withoutCart.email}'`);
        const blocked = await get(withoutCart, 1, "/?lng=en");
        expect(blocked.status()).toBe(200);
        expect(blocked.headers()["x-page-cache"]).toBeUndefined();
        const blockedHtml = await blocked.text();
        for (const visitor of visitors) expect(blockedHtml).not.toContain(visitor.email);
        expect(blockedHtml).not.toContain('data-testid="user-menu"');
        const cleared = blocked.headersArray().filter((header) => header.name.toLowerCase() === "set-cookie");
        expect(cleared.map((header) => header.value).join("\n")).toMatch(
          /(?:^|\n)(?:__Host-)?sid=;[^\n]*(?:Max-Age=0|Expires=Thu, 01 Jan 1970)/,
        );
        expect((await get(theAdmin, 1, "/?lng=en")).headers()["x-page-cache"]).toBe("hit");
      } finally {
        for (const visitor of visitors) await (visitor.on[1] as APIRequestContext).dispose().catch(() => undefined);
        await disposeShoppers(everyone);
      }
    });
  });
}

/** A real 8x8 PNG for the receipt field. */
async function tinyPng(): Promise<Buffer> {
  const sharp = (await import("sharp")).default;
  return sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
}
