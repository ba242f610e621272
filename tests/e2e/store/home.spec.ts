import { CJK, expect, test } from "../fixtures";

test.describe("home page", () => {
  test("shows the demo catalogue in English", { tag: "@render" }, async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page).toHaveTitle(/Harbour Tactical/);
    await expect(page.getByRole("heading", { level: 1, name: "Gear Up for the Field" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Shop Now" })).toHaveAttribute("href", "/category/rifles");
    await expect(page.getByRole("link", { name: "New Arrivals" })).toHaveAttribute("href", "/category/new-arrivals");

    const featured = page.locator("section[aria-labelledby=featured-heading] article");
    await expect(featured).toHaveCount(3);
    await expect(featured.first().getByText(/^HK\$\d[\d,]*\.\d{2}$/)).toBeVisible();
    await expect(page.getByRole("link", { name: /View all products/ })).toHaveAttribute("href", "/category/all");

    const tiles = page.locator("section[aria-labelledby=categories-heading] a");
    await expect(tiles).toHaveCount(5);
    await expect(tiles.first()).toHaveAttribute("href", "/category/rifles");

    // Structured data: the shop (name and contact from Settings → Shop details) and its featured
    // products, quoting HKD prices, each sold by the shop.
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    const [store, itemList] = jsonLd["@graph"];
    expect(store).toMatchObject({ "@type": "Store", name: "Harbour Tactical", email: "support@harbourtactical.hk" });
    expect(itemList.itemListElement).toHaveLength(3);
    expect(itemList.itemListElement[0].item.offers.priceCurrency).toBe("HKD");
    expect(itemList.itemListElement[0].item.offers.seller.name).toBe("Harbour Tactical");

    // Every image on the page loads (the seeded pictures exist).
    for (const src of await page
      .locator("main img")
      .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src))) {
      expect((await page.request.get(src)).status(), src).toBe(200);
    }
    await expect(page.locator("footer")).toContainText(`© ${new Date().getFullYear()} Harbour Tactical`);
  });

  test("shows the whole page in Chinese", { tag: "@render" }, async ({ page, inChinese }) => {
    await inChinese();
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-HK");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("整裝出發，迎戰沙場");
    await expect(page.getByRole("link", { name: "立即選購" })).toBeVisible();
    // No English interface text on a Chinese page: product names and categories come in Chinese too.
    const featuredNames = await page.locator("section[aria-labelledby=featured-heading] article h3").allTextContents();
    expect(featuredNames).toHaveLength(3);
    for (const name of featuredNames) expect(name).toMatch(CJK);
    const tiles = await page.locator("section[aria-labelledby=categories-heading] a span.text-xl").allTextContents();
    for (const name of tiles) expect(name).toMatch(CJK);
    const body = await page.locator("body").innerText();
    for (const english of ["Shop Now", "Featured Products", "Customer Service", "Privacy Policy", "Return to Home"]) {
      expect(body).not.toContain(english);
    }
    // Structured data in Chinese too: the shop, its featured products and the page's language.
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    const [store, itemList, webPage] = jsonLd["@graph"];
    expect(store).toMatchObject({ "@type": "Store", name: "港灣戰術" });
    for (const { item } of itemList.itemListElement) {
      expect(item.name).toMatch(CJK);
      expect(item.url).toMatch(/\/product\/\d+\?lng=zh$/);
    }
    expect(webPage).toMatchObject({ "@type": "WebPage", inLanguage: "zh-Hant-HK" });
  });

  test("answers a browser that prefers Chinese in Chinese", { tag: "@render" }, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ locale: "zh-HK", baseURL });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-HK");
    await context.close();
  });
});
