import { CJK, expect, test } from "../fixtures";

test.describe("layout", () => {
  test("header and footer links resolve", async ({ page, request }) => {
    await page.goto("/");
    const hrefs = await page
      .locator("header a[href], footer a[href]")
      .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute("href") ?? ""))]);
    const internal = hrefs.filter((href) => href.startsWith("/"));
    expect(internal).toEqual(
      expect.arrayContaining(["/", "/shipping", "/returns", "/faq", "/contact", "/privacy", "/terms"]),
    );
    expect(hrefs.filter((href) => href.startsWith("mailto:"))).toEqual(["mailto:support@harbourtactical.hk"]);
    expect(internal).toEqual(expect.arrayContaining(["/category/rifles", "/blog", "/cart", "/login"]));
    for (const href of internal) {
      const response = await request.get(href);
      expect(response.status(), href).toBe(200);
    }
  });

  test("content pages read in both languages", { tag: "@render" }, async ({ page, inChinese }) => {
    for (const path of ["/shipping", "/returns", "/faq", "/contact", "/privacy", "/terms"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).not.toBeEmpty();
    }
    await page.goto("/shipping");
    await expect(page.locator("main")).toContainText("48 hours");
    await inChinese();
    await page.goto("/shipping");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(CJK);
    await expect(page.locator("main")).toContainText("48");
    expect(await page.locator("main").innerText()).not.toMatch(/\bthe\b|\band\b/);
  });

  test("unknown paths show the not-found page with 404", { tag: "@render" }, async ({ page, inChinese }) => {
    const response = await page.goto("/no-such-page/at-all");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Gear Up for the Field" })).toBeVisible();

    await inChinese();
    const zh = await page.goto("/still-missing");
    expect(zh?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "糟糕！找不到頁面" })).toBeVisible();
  });

  test("search in the header goes to /search?q= without JavaScript", async ({ page }) => {
    await page.goto("/");
    const search = page.locator("header form[role=search]").first();
    await search.getByRole("searchbox").fill("rifle");
    await search.getByRole("button").click();
    await expect(page).toHaveURL(/\/search\?q=rifle$/);
  });

  test("the mobile menu opens on a phone-width screen", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    const faq = page.getByRole("navigation", { name: "Categories" });
    await expect(faq).toBeHidden();
    await page.getByLabel("Open menu").click();
    await expect(faq).toBeVisible();
    await expect(faq.getByRole("link").first()).toBeVisible();
    // Nothing overflows sideways on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("responses carry the security headers and a script nonce", { tag: "@http" }, async ({ request }) => {
    const response = await request.get("/");
    const headers = response.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    const nonce = /'nonce-([^']+)'/.exec(headers["content-security-policy"] ?? "")?.[1];
    const html = await response.text();
    expect(html).toContain(`nonce="${nonce}"`);
    // The health check too: it is answered before the pages, not before the headers.
    const health = await request.get("/healthz");
    expect(health.status()).toBe(200);
    expect(health.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(health.headers()["x-content-type-options"]).toBe("nosniff");
    expect(health.headers()["x-frame-options"]).toBe("DENY");
    expect(health.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });
});
