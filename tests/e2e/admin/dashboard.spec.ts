import { createAdmin, expect, submitAuthForm, test, uniqueEmail, uniquePassword } from "../fixtures";

/** The dashboard reads what the server recorded: page views from storefront visits, orders, the catalogue. */
test.describe("admin dashboard", () => {
  test("shows analytics with the pages shoppers visited, a chart and business metrics", async ({
    page,
    browser,
    baseURL,
  }) => {
    // A shopper (a separate browser) visits a page nobody else visits.
    const path = `/category/all?visit=${Date.now()}`;
    // Headless Chromium calls itself HeadlessChrome, which the server rightly skips as a bot.
    const userAgent =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    const shopper = await browser.newContext({ baseURL, userAgent });
    const visitor = await shopper.newPage();
    await visitor.goto("/faq");
    await visitor.goto(path);
    await shopper.close();

    const email = uniqueEmail("dash-admin");
    const password = uniquePassword();
    createAdmin(email, password);
    await page.goto("/admin/login");
    await submitAuthForm(page, email, password, "Login");
    await expect(page).toHaveURL(/\/admin$/);

    const analytics = page.getByTestId("analytics");
    await expect(analytics).toContainText("Total Views");
    const totalViews = Number((await analytics.locator("p.text-2xl").first().textContent()) ?? "0");
    expect(totalViews).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId("popular-pages")).toContainText("/category/all");
    // The chart is server-drawn SVG: there without JavaScript.
    await expect(page.locator("svg[role=img] title").first()).toHaveText("Daily views and orders (last 30 days)");
    expect(await page.locator("svg[role=img] rect").count()).toBe(30);
    const business = page.getByTestId("business");
    await expect(business).toContainText("Total Products");
    await expect(business).toContainText("HK$");
    // Admin pages are not counted as page views.
    await page.reload();
    const again = Number((await page.getByTestId("analytics").locator("p.text-2xl").first().textContent()) ?? "0");
    expect(again).toBeGreaterThanOrEqual(totalViews);
  });
});
