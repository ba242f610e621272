import { seriousViolations } from "../a11y";
import { expect, setLanguage, signInAsAdmin, shopperTest as test, withLock } from "../fixtures";

/**
 * Issue 14 on the main test shop, which runs in demo mode (PUBLIC_URL is a loopback address)
 * with the seeded demo account primary: every admin page says shoppers are told to pay into it,
 * and "Remove demo data" shows what it would remove (the removal itself runs on a shop of its
 * own: tests/e2e/owner/demo.spec.ts). English at desk width, Chinese at phone width.
 */

test("the admin is told the demo account is primary, and sees what Remove demo data would remove", async ({
  page,
  jsEnabled,
}) => {
  await signInAsAdmin(page, "demo-banner");
  await withLock("primary", async () => {
    for (const path of ["/admin", "/admin/customers", "/admin/blog"]) {
      await page.goto(path);
      const banner = page.getByTestId("demo-banner");
      await expect(banner).toContainText("Demo bank account — shoppers are told to pay into it");
      await expect(banner).toContainText("The shop runs in demo mode");
    }
    await page.getByTestId("demo-banner").getByRole("link", { name: "Bank accounts" }).click();
    await expect(page).toHaveURL(/\/admin\/settings#banking-heading$/);
    await page.getByRole("link", { name: "Review and remove demo data" }).click();
    await expect(page).toHaveURL(/\/admin\/demo-data$/);
    await expect(page.getByRole("heading", { level: 1, name: "Remove demo data" })).toBeVisible();
    const summary = page.getByTestId("demo-data-summary");
    await expect(summary.locator("dt:has-text('Demo products') + dd")).toHaveText(/^[1-9]\d*$/);
    await expect(summary.locator("dt:has-text('Demo bank account') + dd")).toHaveText("1");
    await expect(page.getByRole("button", { name: "Remove demo data now" })).toBeVisible();
    expect(await seriousViolations(page, jsEnabled)).toEqual([]);
  });
});

test.describe("in Chinese at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the banner and the demo data screen", async ({ page, context, baseURL, jsEnabled }) => {
    await signInAsAdmin(page, "demo-banner-zh");
    await setLanguage(context, baseURL ?? "", "zh");
    await withLock("primary", async () => {
      await page.goto("/admin");
      const banner = page.getByTestId("demo-banner");
      await expect(banner).toContainText("示範銀行帳戶——顧客會被要求付款至此帳戶");
      await banner.getByRole("link", { name: "移除示範資料" }).click();
      await expect(page).toHaveURL(/\/admin\/demo-data$/);
      await expect(page.getByRole("heading", { level: 1, name: "移除示範資料" })).toBeVisible();
      await expect(page.getByRole("button", { name: "立即移除示範資料" })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page, jsEnabled)).toEqual([]);
    });
  });
});
