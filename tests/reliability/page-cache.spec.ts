import { type APIRequestContext, expect, test } from "@playwright/test";
import { runStatement } from "../setup/postgres";
import {
  type Books,
  newShopFiles,
  removeFiles,
  type Shop,
  type ShopCluster,
  startScaleShop,
  startShop,
  startShopCluster,
} from "./shop";
import {
  disposeShoppers,
  pay,
  readyToPay,
  type Shopper,
  signUpShoppers,
  sqliteBooks,
  type Variant,
  withWritableDatabase,
} from "./shoppers";

/**
 * The rendered-page cache (server/page-cache.ts, docs/decisions/032) across processes: every
 * kind of catalogue write (the search synonyms too) is seen by the next anonymous page of every process, signed-in pages
 * never come from the cache, a cached page carries its own response's nonce, and languages,
 * currencies and cart counts never mix. Two processes on one SQLite file (the default on a
 * two-core machine) and two on PostgreSQL.
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

    test("a signed-in shopper's pages and an anonymous cart's badge never come from another visitor's cache", async ({
      playwright,
    }) => {
      const path = "/category/all";
      await warm(shops, path);
      const [shopper] = (await signUpShoppers(playwright, [shops[0] as Shop], 1, "cache")) as [Shopper];
      try {
        for (let i = 0; i < 2; i++) {
          const response = await shopper.request.get(path, { headers: { "user-agent": BROWSER } });
          expect(response.headers()["x-page-cache"], "signed-in: never the cache").toBeUndefined();
          expect(await response.text()).toContain(shopper.email);
        }
      } finally {
        await disposeShoppers([shopper]);
      }
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
        // The add left a flash message: that page is React Router's; the next ones show the badge.
        await anonymous.get(path);
        for (let i = 0; i < 2; i++) {
          const html = await (await anonymous.get(path)).text();
          expect(html).toMatch(/data-testid="cart-count"[^>]*>1</);
        }
        expect((await page(shops[1] as Shop, path)).html, "a visitor without a cart").not.toContain(
          'data-testid="cart-count"',
        );
      } finally {
        await anonymous.dispose();
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
