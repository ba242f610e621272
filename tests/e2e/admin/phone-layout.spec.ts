import type { Locator, Page } from "@playwright/test";
import {
  apiAddToCart,
  apiCheckout,
  apiPaymentKey,
  apiSubmitPayment,
  expect,
  newApiShopper,
  productIdByName,
  receiptJpeg,
  setLanguage,
  signInAsAdmin,
  shopperTest as test,
} from "../fixtures";

/**
 * The orders and products lists on a phone (390 px): each row is a card, so an order's status
 * and its actions (Details, Mark Paid) and a product's stock and actions (Edit, Delete) are on
 * screen without scrolling sideways, in English and in Chinese, with and without JavaScript.
 */

const PHONE = { width: 390, height: 844 };

/** A product whose stock no spec asserts (see customers.spec.ts). */
const PRODUCT = "0.25 g Precision BBs (4000 rds)";

/** Fully inside the viewport's width. */
async function expectOnScreen(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box, "a box").not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
}

/** Neither the page nor the list's own box scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, list: Locator) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  expect(await list.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);
}

test.describe("admin lists on a phone", () => {
  test.use({ viewport: PHONE });

  for (const language of ["en", "zh"] as const) {
    test(`orders and products show status and actions without sideways scrolling (${language})`, {
      tag: "@render",
    }, async ({ page, context, baseURL, playwright }) => {
      test.setTimeout(60_000);
      // An order waiting for payment: its row offers Mark Paid.
      const shopper = await newApiShopper(playwright, baseURL as string, "phone-buyer");
      try {
        await apiAddToCart(shopper.request, await productIdByName(shopper.request, PRODUCT), "Default", 1);
        await apiCheckout(shopper.request, shopper.email);
        const paid = await apiSubmitPayment(shopper.request, await apiPaymentKey(shopper.request), await receiptJpeg());
        expect(paid.status()).toBe(302);
      } finally {
        await shopper.dispose();
      }
      await signInAsAdmin(page, "phone-admin");
      await setLanguage(context, baseURL as string, language);
      const text =
        language === "en"
          ? {
              status: "Status",
              actions: "Actions",
              details: "Details",
              markPaid: "Mark Paid",
              edit: "Edit",
              stock: "Stock",
            }
          : { status: "狀態", actions: "操作", details: "詳情", markPaid: "標記為已付款", edit: "編輯", stock: "庫存" };

      await page.goto(`/admin/orders?q=${encodeURIComponent(shopper.email)}`);
      const row = page.getByTestId("order-row");
      await expect(row).toHaveCount(1);
      await expectNoSidewaysScroll(page, page.getByTestId("orders-table"));
      // The column names come with the values: the header row is hidden on a phone.
      await expect(page.locator("thead")).toBeHidden();
      const statusCell = row.locator("td", { has: page.getByTestId("order-status") });
      expect(await statusCell.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe(`"${text.status}"`);
      await expectOnScreen(row.getByTestId("order-status"));
      await expectOnScreen(row.getByRole("link", { name: text.details }));
      await expectOnScreen(row.getByRole("button", { name: text.markPaid }));

      await page.goto("/admin/products");
      const product = page.getByTestId("products-table").locator("tbody tr").first();
      await expect(product).toBeVisible();
      await expectNoSidewaysScroll(page, page.getByTestId("products-table"));
      await expectOnScreen(product.getByTestId("stock-badge"));
      await expectOnScreen(product.getByRole("link", { name: text.edit, exact: true }));
      const actionsCell = product.locator("td").last();
      expect(await actionsCell.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe(
        `"${text.actions}"`,
      );
    });
  }

  test("at desk width the lists are tables with their header row", { tag: "@render" }, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAsAdmin(page, "desk-admin");
    await page.goto("/admin/products");
    await expect(page.locator("thead")).toBeVisible();
    const cell = page.getByTestId("products-table").locator("tbody tr").first().locator("td").first();
    expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe("table-cell");
    expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe("none");
  });
});
