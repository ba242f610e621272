import { beforeAll, describe, expect, it } from "vitest";
import { now } from "#db/connect.server";
import { SEED_BLOG_POSTS, SEED_CATEGORIES, SEED_PRODUCTS } from "#db/seed/catalogue";
import { seedDemo } from "#db/seed/index.server";
import { buildSitemap, escapeXml } from "~/lib/sitemap.server";
import { loader as robotsLoader } from "~/routes/resources/robots";
import { loader as sitemapLoader } from "~/routes/resources/sitemap";
import { createCategory } from "./factories";
import { createTestContext, createTestServices, type TestServices } from "./setup/db";

const BASE = "https://shop.example.hk";
let svc: TestServices;
let xml: string;
let draftIds: number[];

beforeAll(async () => {
  svc = await createTestServices({ publicUrl: BASE });
  await seedDemo(svc.db, svc.storage);
  // Characters that must be escaped in XML, in an active category's slug.
  await createCategory(svc.db, { slug: "tom's-&-co", name_en: "Odd", name_zh: "怪" });
  draftIds = (await svc.db.selectFrom("blog_posts").select("id").where("published", "=", 0).execute()).map(
    (row) => row.id,
  );
  xml = await buildSitemap(svc.db, BASE);
}, 60_000);

interface SitemapUrl {
  loc: string;
  lastmod: string | null;
  /** hreflang → href of the page's <xhtml:link rel="alternate"> elements. */
  alternates: Record<string, string>;
}

function unescapeXml(text: string): string {
  // Every "&" must start an entity; no raw "<", ">" or quotes inside text.
  if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(text) || /["'<>]/.test(text)) throw new Error(`unescaped: ${text}`);
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** A deliberately small reader for the one shape we emit: <urlset> holding flat <url> elements. */
function parseUrls(text: string): SitemapUrl[] {
  const body = text.match(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset [^>]+>\n([\s\S]*)<\/urlset>\n$/);
  if (!body) throw new Error("not a <urlset> document");
  const urls = (body[1] as string).split("\n").filter(Boolean);
  return urls.map((line) => {
    const url = line.match(
      /^<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?((?:<xhtml:link [^>]*\/>)*)<\/url>$/,
    );
    if (!url) throw new Error(`malformed <url>: ${line}`);
    const alternates: Record<string, string> = {};
    for (const link of (url[3] ?? "").match(/<xhtml:link [^>]*\/>/g) ?? []) {
      const parts = link.match(/^<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>$/);
      if (!parts) throw new Error(`malformed <xhtml:link>: ${link}`);
      alternates[parts[1] as string] = unescapeXml(parts[2] as string);
    }
    return { loc: unescapeXml(url[1] as string), lastmod: url[2] ?? null, alternates };
  });
}

describe("buildSitemap", () => {
  it("is a well-formed urlset with the sitemap and xhtml namespaces", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    );
    expect(xml.match(/<url>/g)?.length).toBe(xml.match(/<\/url>/g)?.length);
    expect(xml.match(/<loc>/g)?.length).toBe(xml.match(/<url>/g)?.length);
    expect(() => parseUrls(xml)).not.toThrow();
  });

  it("lists the fixed pages as absolute URLs, each once", () => {
    const locs = parseUrls(xml).map((url) => url.loc);
    for (const path of [
      "/",
      "/shipping",
      "/returns",
      "/faq",
      "/contact",
      "/privacy",
      "/terms",
      "/blog",
      "/category/all",
      "/category/new-arrivals",
    ]) {
      expect(
        locs.filter((loc) => loc === `${BASE}${path}`),
        path,
      ).toHaveLength(1);
    }
    expect(locs.every((loc) => loc.startsWith(`${BASE}/`))).toBe(true);
    expect(new Set(locs).size).toBe(locs.length);
  });

  it("lists active categories only", () => {
    const locs = parseUrls(xml).map((url) => url.loc);
    for (const category of SEED_CATEGORIES) {
      if (category.slug === "new-arrivals") continue; // a fixed listing, always present
      expect(locs.includes(`${BASE}/category/${category.slug}`), category.slug).toBe(category.is_active === 1);
    }
  });

  it("escapes special characters", () => {
    expect(xml).toContain(`<loc>${BASE}/category/tom&apos;s-%26-co</loc>`);
    expect(escapeXml(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
    expect(parseUrls(xml).map((url) => url.loc)).toContain(`${BASE}/category/tom's-%26-co`);
  });

  it("lists every product shoppers can see with its last change date, none of an inactive category", async () => {
    const products = await svc.db
      .selectFrom("products")
      .leftJoin("categories", "categories.id", "products.category_id")
      .select(["products.id", "products.updated_at", "categories.is_active"])
      .execute();
    expect(products).toHaveLength(SEED_PRODUCTS.length);
    const urls = new Map(parseUrls(xml).map((url) => [url.loc, url.lastmod]));
    const hidden = products.filter((product) => product.is_active === 0);
    expect(hidden.length).toBeGreaterThan(0);
    for (const product of products) {
      const loc = `${BASE}/product/${product.id}`;
      if (product.is_active === 0) expect(urls.has(loc), loc).toBe(false);
      else expect(urls.get(loc)).toBe(product.updated_at.slice(0, 10));
    }
  });

  it("gives every URL its English, Chinese and x-default alternates, as the pages' hreflang links do", () => {
    const urls = parseUrls(xml);
    expect(xml.match(/<xhtml:link /g)?.length).toBe(urls.length * 3);
    for (const url of urls) {
      expect(url.alternates, url.loc).toEqual({
        en: `${url.loc}?lng=en`,
        "zh-Hant-HK": `${url.loc}?lng=zh`,
        "x-default": url.loc,
      });
    }
    const home = urls.find((url) => url.loc === `${BASE}/`);
    expect(home?.alternates).toEqual({
      en: `${BASE}/?lng=en`,
      "zh-Hant-HK": `${BASE}/?lng=zh`,
      "x-default": `${BASE}/`,
    });
    // Escaped in attributes too.
    expect(xml).toContain(`hreflang="zh-Hant-HK" href="${BASE}/category/tom&apos;s-%26-co?lng=zh"`);
  });

  it("lists published posts and no drafts", async () => {
    const locs = parseUrls(xml).map((url) => url.loc);
    const posts = locs.filter((loc) => loc.startsWith(`${BASE}/blog/`));
    expect(posts).toHaveLength(SEED_BLOG_POSTS.filter((post) => post.published === 1).length);
    expect(draftIds.length).toBeGreaterThan(0);
    for (const id of draftIds) expect(locs).not.toContain(`${BASE}/blog/${id}`);
  });

  it("stays one query a table for a large catalogue", async () => {
    const stamp = now();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      category_id: null,
      name_en: `Bulk ${i}`,
      name_zh: `批量 ${i}`,
      description_en: "x",
      description_zh: "x",
      price_hkd_cents: 100,
      price_gbp_cents: 10,
      price_eur_cents: 10,
      price_usd_cents: 10,
      created_at: stamp,
      updated_at: stamp,
    }));
    for (let i = 0; i < rows.length; i += 1000) {
      await svc.db
        .insertInto("products")
        .values(rows.slice(i, i + 1000))
        .execute();
    }
    const started = performance.now();
    const big = await buildSitemap(svc.db, BASE);
    expect(performance.now() - started).toBeLessThan(2000);
    const hidden = SEED_PRODUCTS.filter(
      (product) => SEED_CATEGORIES.find((category) => category.slug === product.category)?.is_active === 0,
    ).length;
    expect(parseUrls(big).filter((url) => url.loc.includes("/product/")).length).toBe(
      SEED_PRODUCTS.length - hidden + 10_000,
    );
  });
});

describe("resource routes", () => {
  it("serves /sitemap.xml as XML with a cache header", async () => {
    const response = (await sitemapLoader({
      request: new Request(`${BASE}/sitemap.xml`),
      params: {},
      context: createTestContext(svc),
    } as never)) as Response;
    expect(response.headers.get("Content-Type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(parseUrls(await response.text()).length).toBeGreaterThan(10);
  });

  it("serves /robots.txt pointing at the sitemap", async () => {
    const response = (await robotsLoader({
      request: new Request(`${BASE}/robots.txt`),
      params: {},
      context: createTestContext(svc),
    } as never)) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    const text = await response.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    for (const path of ["/admin", "/cart", "/checkout", "/payment", "/account", "/login", "/resources/"]) {
      expect(text).toContain(`\nDisallow: ${path}\n`);
    }
    expect(text).toContain(`\nSitemap: ${BASE}/sitemap.xml\n`);
  });
});
