import { CJK, expect, setLanguage, test } from "../fixtures";

/**
 * The blog (published posts only) and what search engines read: sitemap, robots.txt, canonical
 * and hreflang links. Seeded (db/seed/catalogue.ts): three posts inserted in order, the third
 * ("Summer Field-Day Checklist for Hong Kong Players") a draft, so its id is 3.
 */

const DRAFT_ID = 3;
const DRAFT_TITLE = "Summer Field-Day Checklist for Hong Kong Players";

test.describe("blog", () => {
  test("lists published posts and opens one", async ({ page }) => {
    const response = await page.goto("/blog");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Blog");

    const posts = page.locator("main article");
    const count = await posts.count();
    expect(count).toBeGreaterThan(0);
    const titles = (await posts.locator("h2").allTextContents()).map((t) => t.trim());
    expect(titles).not.toContain(DRAFT_TITLE);
    const readMore = page.getByRole("link", { name: /^Read more: / });
    await expect(readMore).toHaveCount(count);
    await expect(readMore.first()).toHaveText("Read More →");
    const hrefs = await readMore.evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    for (const href of hrefs) expect(href).toMatch(/^\/blog\/\d+$/);
    expect(hrefs).not.toContain(`/blog/${DRAFT_ID}`);

    await readMore.first().click();
    await expect(page).toHaveURL(new RegExp(`${hrefs[0]}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[0] ?? "");
    // The Markdown body is rendered: several real paragraphs, not the raw text.
    const body = page.locator("main article > div");
    const paragraphs = body.locator("p");
    expect(await paragraphs.count()).toBeGreaterThan(1);
    await expect(paragraphs.first()).not.toBeEmpty();
    expect(await body.innerText()).not.toMatch(/^#+ |\*\*/m);
    await expect(page.getByRole("link", { name: /Back to the blog/ })).toHaveAttribute("href", "/blog");
  });

  test("a draft post is not published", async ({ page }) => {
    // The seed's draft exists (ids 1..3 were inserted in order) yet answers 404.
    const listed = await page.goto("/blog");
    expect(listed?.status()).toBe(200);
    await expect(page.getByText(DRAFT_TITLE)).toHaveCount(0);
    const response = await page.goto(`/blog/${DRAFT_ID}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText(DRAFT_TITLE)).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oops! Page not found");
    // Its published neighbours do open.
    for (const id of [1, 2]) expect((await page.request.get(`/blog/${id}`)).status(), `/blog/${id}`).toBe(200);
  });

  test("reads in Chinese", async ({ page, inChinese }) => {
    await inChinese();
    await page.goto("/blog");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("網誌");
    const titles = await page.locator("main article h2").allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(title).toMatch(CJK);
    await page.locator("main article h2 a").first().click();
    await expect(page).toHaveURL(/\/blog\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CJK);
    await expect(page.locator("main article > div p").first()).toHaveText(CJK);
  });
});

test.describe("SEO", () => {
  // Request-level checks: one project is enough.
  test.beforeEach(({ jsEnabled }) => {
    test.skip(!jsEnabled, "request-level: runs once, in the js project");
  });

  test("the sitemap lists every public page and each answers 200", { tag: "@http" }, async ({ request, baseURL }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^application\/xml/);
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
      (m[1] ?? "")
        .replace(/&amp;/g, "&")
        .replace(/&apos;/g, "'")
        .replace(/&quot;/g, '"'),
    );
    expect(locs.length).toBeGreaterThan(60);
    expect(new Set(locs).size).toBe(locs.length);
    for (const loc of locs) expect(loc.startsWith(`${baseURL}/`), loc).toBe(true);
    const paths = locs.map((loc) => new URL(loc).pathname);
    expect(paths).toContain("/category/rifles");
    expect(paths).toContain("/blog");
    expect(paths.some((p) => /^\/product\/\d+$/.test(p))).toBe(true);
    expect(paths.some((p) => /^\/blog\/\d+$/.test(p))).toBe(true);
    expect(paths).not.toContain(`/blog/${DRAFT_ID}`);

    // Every URL works (a few at a time).
    const failures: string[] = [];
    const queue = [...locs];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let loc = queue.shift(); loc; loc = queue.shift()) {
          const status = (await request.get(loc)).status();
          if (status !== 200) failures.push(`${loc} -> ${status}`);
        }
      }),
    );
    expect(failures).toEqual([]);
  });

  test("robots.txt keeps crawlers out of private pages and names the sitemap", { tag: "@http" }, async ({
    request,
    baseURL,
  }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
    const lines = (await response.text()).split(/\r?\n/).map((l) => l.trim());
    expect(lines).toContain("User-agent: *");
    for (const path of ["/admin", "/cart", "/checkout"]) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    expect(lines).not.toContain("Disallow: /");
  });

  test("a product page names its canonical URL and language alternates", async ({ page, baseURL }) => {
    await page.goto("/category/rifles");
    const path = (await page.locator("main article h3 a").first().getAttribute("href")) ?? "";
    expect(path).toMatch(/^\/product\/\d+$/);
    await page.goto(path);
    const url = `${baseURL}${path}`;
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", url);
    await expect(page.locator('head link[rel="alternate"][hreflang="en"]')).toHaveAttribute("href", `${url}?lng=en`);
    await expect(page.locator('head link[rel="alternate"][hreflang="zh-Hant-HK"]')).toHaveAttribute(
      "href",
      `${url}?lng=zh`,
    );
    await expect(page.locator('head link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute("href", url);
    // The zh alternate really is the Chinese page.
    await page.goto(`${path}?lng=zh`);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-HK");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/[\u3400-\u9fff]/);
  });

  test("?lng=zh renders the home page in Chinese", async ({ page }) => {
    await page.goto("/?lng=zh");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-HK");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("整裝出發，迎戰沙場");
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", /\/\?lng=zh$/);
  });

  test("a page shown in Chinese by the language cookie names its ?lng=zh address as canonical", async ({
    page,
    context,
    baseURL,
  }) => {
    await setLanguage(context, baseURL ?? "", "zh");
    await page.goto("/blog");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-HK");
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/blog?lng=zh`);
  });
});
