import type { Page } from "@playwright/test";
import { expect, setLanguage, signInAsAdmin, shopperTest as test } from "../fixtures";

/**
 * A thrown 404 keeps the page's frame: a missing product, category, blog post or admin order
 * answers 404 inside the shop's header and footer (or the admin shell), in the reader's
 * language, with and without JavaScript.
 */

const TEXT = {
  en: {
    productMissing: "Product not found",
    categoryMissing: "No products found",
    pageMissing: "Oops! Page not found",
    categoriesNav: "Categories",
    adminMenu: "Admin menu",
    adminDashboard: "Dashboard",
  },
  zh: {
    productMissing: "找不到產品",
    categoryMissing: "找不到產品",
    pageMissing: "糟糕！找不到頁面",
    categoriesNav: "產品類別",
    adminMenu: "管理選單",
    adminDashboard: "儀表板",
  },
} as const;

type Language = keyof typeof TEXT;

/** The storefront frame: the header with the shop's name and category nav, and the footer. */
async function expectStoreFrame(page: Page, language: Language) {
  const header = page.getByTestId("site-header");
  await expect(header).toBeVisible();
  await expect(header.getByTestId("shop-name")).not.toBeEmpty();
  await expect(header.getByRole("link").first()).toHaveAttribute("href", "/");
  await expect(page.getByRole("navigation", { name: TEXT[language].categoriesNav })).toBeAttached();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", language === "zh" ? /^zh/ : "en");
}

for (const language of ["en", "zh"] as const) {
  test.describe(`not found inside the layout (${language})`, () => {
    test("a missing product", { tag: "@render" }, async ({ page, context, baseURL }) => {
      await setLanguage(context, baseURL ?? "", language);
      const response = await page.goto("/product/999999");
      expect(response?.status()).toBe(404);
      await expectStoreFrame(page, language);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT[language].productMissing);
    });

    test("a missing category", { tag: "@render" }, async ({ page, context, baseURL }) => {
      await setLanguage(context, baseURL ?? "", language);
      const response = await page.goto("/category/no-such-category");
      expect(response?.status()).toBe(404);
      await expectStoreFrame(page, language);
      await expect(page.getByRole("main").getByText(TEXT[language].categoryMissing, { exact: true })).toBeVisible();
    });

    test("a missing blog post", { tag: "@render" }, async ({ page, context, baseURL }) => {
      await setLanguage(context, baseURL ?? "", language);
      const response = await page.goto("/blog/999999");
      expect(response?.status()).toBe(404);
      await expectStoreFrame(page, language);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT[language].pageMissing);
    });

    test("a missing admin order", { tag: "@render" }, async ({ page, context, baseURL }) => {
      await signInAsAdmin(page, `frame-${language}`);
      // Chosen after signing in: the sign-in form is found by its English labels.
      await setLanguage(context, baseURL ?? "", language);
      const response = await page.goto("/admin/orders/999999");
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("navigation", { name: TEXT[language].adminMenu, exact: true })).toBeVisible();
      await expect(
        page.getByRole("navigation", { name: TEXT[language].adminMenu, exact: true }).getByRole("link", {
          name: TEXT[language].adminDashboard,
        }),
      ).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(TEXT[language].pageMissing);
      await expect(page.getByTestId("site-header")).toHaveCount(0);
    });
  });
}
